// Server requests (valid, one per method the protocol has) answered by user handlers that do one of
// HANDLER_OUTCOMES each: throw or reject with values that are no Error, return values JSON cannot
// carry, or answer well. Every request must get exactly one reply — an error with -32603 (or the
// handler's own JsonRpcReplyError code) or the JSON result — and nothing may be thrown where the
// user cannot catch it.
import { CodexClient, type ConnectionDiagnostic } from "@codex-rpc/core";
import { FakeAppServer } from "@codex-rpc/testing";
import type { Catalogue } from "./protocol-catalogue.mjs";
import { instantiate, requestIdFor } from "./malformed-messages.mjs";
import { HANDLER_OUTCOMES, INTERNAL_ERROR, type HandlerOutcome } from "./handler-outcomes.mjs";
import { KINDS, replyKey } from "./oracle.js";
import { type CrashWatch, describeCrash, settleReports } from "./crash-watch.js";
import { SETTLE_BOUND_MS } from "./fuzz-session.js";

const OUTCOMES = new Map(HANDLER_OUTCOMES.map((outcome) => [outcome.name, outcome]));
const IDS = { thread: "thread-h", turn: "turn-h", item: "item-h" };
/** How long a reply may take for its diagnostics to be counted as its own (handlers answer within a few promise hops). The wait ends when the reply comes; the bound only matters on a loaded machine, where the first
 * default answer (its module loaded on demand) once took more than 50 ms and its diagnostic was counted against the turn's end. */
const ATTRIBUTION_WAIT_MS = 2_000;

export interface HandlerCallsOutcome {
  readonly violations: readonly string[];
  readonly cases: number;
  /** Calls whose handler failed: threw, rejected, or answered what JSON cannot carry. */
  readonly faults: number;
  readonly messagesChecked: number;
  readonly messagesLost: number;
}

/** handler-error diagnostics a failing handler may cause: one for a throw or rejection, at most one for a result JSON cannot carry. */
function diagnosticsFor(outcome: HandlerOutcome): { min: number; max: number } {
  if ("result" in outcome.expect) return { min: 0, max: 0 };
  if (outcome.expect.error === INTERNAL_ERROR && /^(throws|rejects)/.test(outcome.name)) return { min: 1, max: 1 };
  return { min: 0, max: 1 };
}

export class HandlerSession {
  readonly diagnostics: ConnectionDiagnostic[] = [];
  readonly #behaviour = new Map<string, HandlerOutcome>();
  #seq = 1;

  private constructor(
    private readonly catalogue: Catalogue,
    private readonly fake: FakeAppServer,
    readonly client: CodexClient,
    private readonly crashes: CrashWatch,
  ) {
    client.diagnostics$.subscribe((diagnostic) => this.diagnostics.push(diagnostic));
  }

  static async open(catalogue: Catalogue, validate: boolean, crashes: CrashWatch): Promise<HandlerSession> {
    const fake = new FakeAppServer({ framing: "ndjson" });
    let session: HandlerSession | undefined;
    const handlers: Record<string, (params: unknown, context: { readonly id: string | number }) => unknown> = {};
    for (const entry of catalogue.entries) {
      if (entry.kind === "request") {
        handlers[entry.method] = (_params, context) => {
          const outcome = session!.#behaviour.get(replyKey(context.id));
          return outcome ? outcome.run() : {};
        };
      }
    }
    const client = await CodexClient.connect(fake.transport, {
      validate: validate ? catalogue.validators : false,
      handlers: handlers as never,
      requestTimeoutMs: 10_000,
    });
    session = new HandlerSession(catalogue, fake, client, crashes);
    return session;
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  async run(calls: readonly { method: string; outcome: string }[]): Promise<HandlerCallsOutcome> {
    const violations: string[] = [];
    const sent: { key: string; outcome: HandlerOutcome; method: string }[] = [];
    for (const call of calls) {
      const outcome = OUTCOMES.get(call.outcome)!;
      const seq = this.#seq++;
      const id = requestIdFor(seq);
      const key = replyKey(id);
      this.#behaviour.set(key, outcome);
      sent.push({ key, outcome, method: call.method });
      const before = this.diagnostics.length;
      this.fake.sendRaw(`${JSON.stringify({ id, method: call.method, params: instantiate(this.catalogue.byMethod.get(call.method)!, IDS) })}\n`);
      await this.#replyTo([key], ATTRIBUTION_WAIT_MS);
      const got = this.diagnostics.slice(before);
      const { min, max } = diagnosticsFor(outcome);
      const wrong = got.filter((diagnostic) => diagnostic.kind !== KINDS.handlerError);
      if (got.length < min || got.length > max || wrong.length > 0) {
        violations.push(
          `${call.method}, handler ${outcome.name}: expected ${min === max ? min : `${min}–${max}`} ${KINDS.handlerError} diagnostic(s), got ${got.map((d) => `${d.kind} (${d.message.slice(0, 100)})`).join("; ") || "none"}`,
        );
      }
    }
    await this.#replyTo(
      sent.map((call) => call.key),
      SETTLE_BOUND_MS,
    );
    await settleReports();
    for (const crash of this.crashes.take()) violations.push(`CRASH ${describeCrash(crash)}`);

    const replies = new Map<string, Record<string, unknown>[]>();
    for (const message of this.fake.received) {
      const record = message as unknown as Record<string, unknown>;
      if (Object.hasOwn(record, "method") || !Object.hasOwn(record, "id")) continue;
      const key = replyKey(record.id);
      replies.set(key, [...(replies.get(key) ?? []), record]);
    }
    this.fake.received.splice(0);
    let lost = 0;
    for (const { key, outcome, method } of sent) {
      this.#behaviour.delete(key);
      const got = replies.get(key) ?? [];
      if (got.length === 0) lost++;
      const what = `${method}, handler ${outcome.name}`;
      if (got.length !== 1) {
        violations.push(`${what}: expected exactly one reply, got ${got.length}${got.length ? `: ${JSON.stringify(got).slice(0, 200)}` : ""}`);
        continue;
      }
      const reply = got[0]!;
      const error = reply.error as { code?: unknown; message?: unknown } | undefined;
      if (Object.hasOwn(reply, "result") === Object.hasOwn(reply, "error")) {
        violations.push(
          `${what}: a reply with ${Object.hasOwn(reply, "result") ? "both result and error" : "neither result nor error"}: ${JSON.stringify(reply).slice(0, 200)}`,
        );
      } else if ("result" in outcome.expect) {
        if (JSON.stringify(reply.result) !== JSON.stringify(outcome.expect.result))
          violations.push(`${what}: expected result ${JSON.stringify(outcome.expect.result)}, got ${JSON.stringify(reply).slice(0, 200)}`);
      } else if (!error || !Number.isInteger(error.code) || typeof error.message !== "string") {
        violations.push(`${what}: expected an error reply (integer code, string message), got ${JSON.stringify(reply).slice(0, 200)}`);
      } else if (outcome.expect.error === "any" ? error.code !== -32000 && error.code !== INTERNAL_ERROR : error.code !== outcome.expect.error) {
        violations.push(
          `${what}: expected error code ${outcome.expect.error === "any" ? `-32000 or ${INTERNAL_ERROR}` : outcome.expect.error}, got ${JSON.stringify(reply).slice(0, 200)}`,
        );
      }
    }
    const faults = sent.filter(({ outcome }) => !("result" in outcome.expect)).length;
    return { violations, cases: sent.length, faults, messagesChecked: sent.length, messagesLost: lost };
  }

  /** Waits (a few event-loop turns, normally) until each of `keys` has a reply, or `ms` passed. */
  async #replyTo(keys: readonly string[], ms: number): Promise<void> {
    const waiting = new Set(keys);
    const deadline = performance.now() + ms;
    let scanned = 0;
    while (waiting.size > 0 && performance.now() < deadline) {
      const received = this.fake.received;
      for (; scanned < received.length; scanned++) {
        const record = received[scanned] as unknown as Record<string, unknown>;
        if (!Object.hasOwn(record, "method") && Object.hasOwn(record, "id")) waiting.delete(replyKey(record.id));
      }
      if (waiting.size > 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
