// One client on a FakeAppServer, reused across fuzz batches while it stays healthy: each batch is a
// live turn (turn/start answered by hand, see live-turn.mjs) into which valid agent-message deltas
// and the batch's cases are sent as raw lines, then a valid turn/completed. Afterwards every case
// is held to its expectation (oracle.ts): diagnostics per line, delivery, replies, the deltas on
// `turn.text$` in order, the turn settled, nothing thrown where the user cannot catch it.
import { CodexClient, type CodexClientOptions, type ConnectionDiagnostic, type DynamicTool, type CodexThread } from "@codex-rpc/core";
import { FakeAppServer } from "@codex-rpc/testing";
import type { ServerRequestMethod } from "@codex-rpc/protocol";
import type { Catalogue } from "./protocol-catalogue.mjs";
import { buildCase, LINE_CAP_BYTES, type MutationKind } from "./malformed-messages.mjs";
import { answerThreadRequests, answerTurnStart, closingLine, liveIds, openingLines, validNotificationLine } from "./live-turn.mjs";
import { expectationOf, replyKey, type Expectation } from "./oracle.js";
import { type CrashWatch, describeCrash, settleReports } from "./crash-watch.js";

/** How long a turn, a reply or a request may take to settle after its cause before it counts as hung (FUZZ_SETTLE_MS). */
export const SETTLE_BOUND_MS = Number(process.env.FUZZ_SETTLE_MS ?? 2_000);

/** How the client under test is set up: validation on or off; server requests answered by the library's defaults or by handlers. */
export interface SessionConfig {
  readonly validate: boolean;
  readonly answering: "library defaults" | "handlers";
}

export const SESSION_CONFIGS: readonly SessionConfig[] = [
  { validate: true, answering: "library defaults" },
  { validate: false, answering: "library defaults" },
  { validate: true, answering: "handlers" },
  { validate: false, answering: "handlers" },
];

/** One case of a batch: a method's message broken by a mutation (or a line of no method), maybe after a valid delta. */
export interface Step {
  readonly method: string;
  readonly mutation: MutationKind;
  readonly pick: number;
  readonly size: number;
  readonly deltaBefore: boolean;
}

export interface BatchOutcome {
  readonly violations: readonly string[];
  readonly cases: number;
  readonly faults: number;
  readonly messagesChecked: number;
  readonly messagesLost: number;
  /** Cases by the mutation that took effect: [all, bad]. */
  readonly byMutation: ReadonlyMap<string, [number, number]>;
}

/**
 * Ends a turn or the thread: sent last in a batch (a client may end the live turn on them), after
 * the batch's deltas. turn/completed ends it; the others might, in a client that chooses so.
 */
const TERMINAL_METHODS: ReadonlySet<string> = new Set(["turn/completed", "thread/closed", "thread/archived", "thread/deleted", "error"]);
const MARKER = /^‹([dc]):(\d+)›/;
/** How long a step waits for its reply before the next step, so that its diagnostics are counted as its own. The wait ends when the reply comes; the bound only matters on a loaded machine, where the first
 * default answer (its module loaded on demand) once took more than 50 ms and its diagnostic was counted against the turn's end. */
const ATTRIBUTION_WAIT_MS = 2_000;

interface SentCase {
  readonly step: Step;
  readonly seq: number;
  readonly mutation: string;
  readonly detail: string;
  readonly expectation: Expectation;
  /** For agent-message deltas: must reach text$ (valid and routed to the live turn and item), or may (at most once). */
  readonly text: "must" | "may" | undefined;
}

export class FuzzSession {
  readonly diagnostics: ConnectionDiagnostic[] = [];
  readonly #typed = new Map<number, number>();
  readonly #unknown = new Map<number, number>();
  /** Reply keys of the last batches' requests, with what sent them: names a late or duplicate reply. */
  readonly #history = new Map<string, string>();
  #batches = 0;
  #seq = 1;
  readonly #answers: (method: string) => boolean;

  private constructor(
    private readonly catalogue: Catalogue,
    readonly config: SessionConfig,
    readonly fake: FakeAppServer,
    readonly client: CodexClient,
    private readonly thread: CodexThread,
    private readonly crashes: CrashWatch,
  ) {
    this.#answers = answeredBy(catalogue, config);
    client.diagnostics$.subscribe((diagnostic) => this.diagnostics.push(diagnostic));
    client.notifications().subscribe((notification) => count(this.#typed, (notification as { emittedAtMs?: unknown }).emittedAtMs));
    client.unknownNotifications().subscribe((notification) => count(this.#unknown, notification.emittedAtMs));
  }

  static async open(catalogue: Catalogue, config: SessionConfig, crashes: CrashWatch): Promise<FuzzSession> {
    const fake = new FakeAppServer({ framing: "ndjson", maxLineBytes: LINE_CAP_BYTES });
    answerThreadRequests(fake, catalogue);
    answerTurnStart(fake, catalogue);
    const client = await CodexClient.connect(fake.transport, clientOptions(catalogue, config));
    const thread = await client.startThread();
    return new FuzzSession(catalogue, config, fake, client, thread, crashes);
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /** Runs one live turn with `steps` injected; never throws for what the client does (it reports it). */
  async runBatch(steps: readonly Step[]): Promise<BatchOutcome> {
    const violations: string[] = [];
    const byMutation = new Map<string, [number, number]>();
    const expectedText: string[] = [];
    const sent: SentCase[] = [];
    const valid: { tag: number; what: string }[] = [];
    let checked = 0;
    let lost = 0;

    const turn = this.thread.run("fuzz");
    const text: unknown[] = [];
    const subscription = turn.text$.subscribe((value) => text.push(value));
    const started = await outcomeWithin(turn.started, SETTLE_BOUND_MS);
    if (started.settled !== "resolved") {
      subscription.unsubscribe();
      return failed(`turn/start did not give a live turn: ${started.settled}${"error" in started ? ` (${String(started.error)})` : ""}`);
    }
    const ids = liveIds(this.thread.id, started.value as string);

    let attributed = this.diagnostics.length;
    const sendValid = (line: string, tag: number, what: string) => {
      const before = this.diagnostics.length;
      this.fake.sendRaw(`${line}\n`);
      valid.push({ tag, what });
      for (const diagnostic of this.diagnostics.slice(before))
        violations.push(`valid ${what} (emittedAtMs ${tag}) produced a diagnostic: ${diagnostic.kind}: ${diagnostic.message}`);
      attributed = this.diagnostics.length;
    };
    const sendDelta = () => {
      const seq = this.#seq++;
      const marker = `‹d:${seq}›`;
      expectedText.push(marker);
      sendValid(validNotificationLine(this.catalogue, "item/agentMessage/delta", { ...ids, text: marker }, seq), seq, "agent-message delta");
    };

    const opening = this.#seq;
    this.#seq += 3;
    openingLines(this.catalogue, ids, opening).forEach((line, i) =>
      sendValid(line, opening + i, ["turn/started", "thread/status/changed", "item/started"][i]!),
    );

    const ordered = [...steps.filter((step) => !TERMINAL_METHODS.has(step.method)), ...steps.filter((step) => TERMINAL_METHODS.has(step.method))];
    let deltasDone = false;
    for (const step of ordered) {
      if (TERMINAL_METHODS.has(step.method) && !deltasDone) {
        sendDelta();
        deltasDone = true;
      }
      if (step.deltaBefore && !deltasDone) sendDelta();
      const seq = this.#seq++;
      const marker = `‹c:${seq}›`;
      const entry = this.catalogue.byMethod.get(step.method)!;
      const built = buildCase(entry, step, seq, { ...ids, text: marker });
      const expectation = expectationOf(built.line, built.message, {
        validators: this.catalogue.validators,
        answers: this.#answers,
        validate: this.config.validate,
        maxLineBytes: LINE_CAP_BYTES,
      });
      const before = this.diagnostics.length;
      this.fake.sendRaw(`${built.line}\n`);
      // A handler's answer (and a failing one's diagnostic) comes after a few promise hops.
      if (expectation.reply) await this.#untilReplied(expectation.reply.count === "one" ? expectation.reply.key : undefined);
      const got = this.diagnostics.slice(before);
      attributed = this.diagnostics.length;
      const textRole = textRoleOf(expectation, ids);
      if (textRole === "must") expectedText.push(marker);
      const record: SentCase = { step, seq, mutation: built.mutation, detail: built.detail, expectation, text: textRole };
      sent.push(record);
      const tally = byMutation.get(built.mutation) ?? [0, 0];
      tally[0]++;
      if (expectation.bad) tally[1]++;
      byMutation.set(built.mutation, tally);

      const { kinds, min, max } = expectation.diagnostics;
      const wrongKind = got.filter((diagnostic) => !kinds.includes(diagnostic.kind));
      if (got.length < min || got.length > max || wrongKind.length > 0) {
        violations.push(
          `${describe(record)}: expected ${min === max ? min : `${min}–${max}`} diagnostic(s) of ${kinds.join(" | ") || "no kind"}, got ${got.length}${got.length ? `: ${got.map((d) => `${d.kind} (${d.message.slice(0, 120)})`).join("; ")}` : ""}`,
        );
      }
    }
    if (!deltasDone) sendDelta();
    const closing = this.#seq++;
    sendValid(closingLine(this.catalogue, ids, closing), closing, "turn/completed");

    // Every turn settles, every request gets its replies, and nothing is thrown where nobody catches it.
    const end = await outcomeWithin(turn.completed, SETTLE_BOUND_MS);
    if (end.settled === "pending") violations.push(`the turn never settled within ${SETTLE_BOUND_MS} ms after its turn/completed (hang)`);
    const replies = await this.#repliesFor(sent);
    await settleReports();
    for (const crash of this.crashes.take()) violations.push(`CRASH ${describeCrash(crash)}`);
    subscription.unsubscribe();
    for (const diagnostic of this.diagnostics.slice(attributed))
      violations.push(`a diagnostic no line of the batch accounts for (after the turn ended): ${diagnostic.kind}: ${diagnostic.message.slice(0, 160)}`);
    this.diagnostics.splice(0);

    // Replies: exactly one (result xor error) per request, -32601 for methods nobody knows, none unasked for.
    const allowed = new Map<string, { one: number; atMost: number; cases: SentCase[] }>();
    for (const record of sent) {
      const reply = record.expectation.reply;
      if (!reply) continue;
      const keys = reply.count === "one" ? [reply.key] : [reply.key, replyKey(null)];
      for (const key of keys) {
        const slot = allowed.get(key) ?? { one: 0, atMost: 0, cases: [] };
        if (reply.count === "one") slot.one++;
        else slot.atMost++;
        slot.cases.push(record);
        allowed.set(key, slot);
      }
    }
    for (const [key, slot] of allowed) {
      const got = replies.get(key) ?? [];
      checked += slot.one;
      if (got.length < slot.one) lost += slot.one - got.length;
      if (got.length < slot.one || got.length > slot.one + slot.atMost) {
        violations.push(
          `${slot.cases.map(describe).join(" + ")}: expected ${slot.one}${slot.atMost ? `–${slot.one + slot.atMost}` : ""} repl${slot.one === 1 ? "y" : "ies"} to id ${key.slice(0, 80)}, got ${got.length}`,
        );
      }
      for (const reply of got) {
        const hasResult = Object.hasOwn(reply, "result");
        const hasError = Object.hasOwn(reply, "error");
        if (hasResult === hasError)
          violations.push(
            `${slot.cases.map(describe).join(" + ")}: a reply with ${hasResult ? "both result and error" : "neither result nor error"}: ${JSON.stringify(reply).slice(0, 200)}`,
          );
        const code = slot.cases.length === 1 ? slot.cases[0]!.expectation.reply?.errorCode : undefined;
        if (code !== undefined && (reply.error as { code?: unknown } | undefined)?.code !== code) {
          violations.push(`${describe(slot.cases[0]!)}: expected an error reply with code ${code}, got ${JSON.stringify(reply).slice(0, 200)}`);
        }
      }
    }
    for (const [key, got] of replies) {
      if (allowed.has(key)) continue;
      const earlier = this.#history.get(key);
      violations.push(
        `${got.length} repl${got.length === 1 ? "y" : "ies"} to id ${key.slice(0, 80)}, ${earlier ? `a request of an earlier batch (${earlier}), already answered or not expected to be` : "which the server never sent as a request"}: ${JSON.stringify(got[0]).slice(0, 200)}`,
      );
    }
    const batch = ++this.#batches;
    for (const [key, slot] of allowed)
      this.#history.set(
        key,
        `batch ${batch}: ${slot.cases.map(describe).join(" + ")}, ${(replies.get(key) ?? []).length} repl${(replies.get(key) ?? []).length === 1 ? "y" : "ies"} then`,
      );
    if (this.#history.size > 2_000) for (const key of [...this.#history.keys()].slice(0, 1_000)) this.#history.delete(key);

    // Delivery: each notification once, on the typed stream or on unknownNotifications(); nothing else.
    for (const record of sent) {
      const { tag, delivery } = record.expectation;
      if (tag === undefined) continue;
      const typed = this.#typed.get(tag) ?? 0;
      const unknown = this.#unknown.get(tag) ?? 0;
      const want = { typed: delivery === "typed" ? 1 : 0, unknown: delivery === "unknown" ? 1 : 0 };
      if (delivery !== "none") {
        checked++;
        if (typed + unknown === 0) lost++;
      }
      if (typed !== want.typed || unknown !== want.unknown) {
        violations.push(`${describe(record)}: expected delivery ${delivery}, got notifications() ×${typed}, unknownNotifications() ×${unknown}`);
      }
    }
    for (const { tag, what } of valid) {
      checked++;
      const typed = this.#typed.get(tag) ?? 0;
      if (typed === 0) lost++;
      if (typed !== 1 || (this.#unknown.get(tag) ?? 0) !== 0) violations.push(`valid ${what} (emittedAtMs ${tag}) reached notifications() ×${typed}`);
    }

    // text$: only strings; the valid deltas, in order, each once; a bad delta's text at most once.
    const may = new Map(sent.filter((record) => record.text === "may").map((record) => [`‹c:${record.seq}›`, 0]));
    // text$ also carries an agent message that completed with no delta before it (codex sends a
    // review's closing message whole): an item/completed case's text may come, at most once.
    const wholes = new Map(sent.flatMap((record) => wholeTextOf(record.expectation)).map((whole) => [whole, 0]));
    const seen: string[] = [];
    for (const value of text) {
      if (typeof value !== "string") {
        violations.push(`turn.text$ emitted a ${value === null ? "null" : typeof value}: ${safeJson(value)}`);
        continue;
      }
      if (wholes.get(value) === 0) {
        wholes.set(value, 1);
        continue;
      }
      const marker = MARKER.exec(value)?.[0];
      if (marker !== undefined && may.has(marker)) may.set(marker, may.get(marker)! + 1);
      else if (marker !== undefined) seen.push(marker);
      else violations.push(`turn.text$ emitted text no agent-message delta of this turn carried: ${JSON.stringify(value.slice(0, 80))}`);
    }
    for (const [marker, times] of may) if (times > 1) violations.push(`turn.text$ emitted ${marker} ${times} times`);
    checked += expectedText.length;
    const seenSet = new Set(seen);
    lost += expectedText.filter((marker) => !seenSet.has(marker)).length;
    if (seen.join("") !== expectedText.join("")) {
      const missing = expectedText.filter((marker) => !seenSet.has(marker));
      const caseOf = (marker: string) => sent.find((record) => `‹c:${record.seq}›` === marker);
      violations.push(
        `turn.text$ did not carry the valid deltas in order: ${missing.length} missing${
          missing.length
            ? ` (${missing
                .slice(0, 5)
                .map((m) => (caseOf(m) ? describe(caseOf(m)!) : m))
                .join(", ")})`
            : ""
        }, ${seen.length} seen for ${expectedText.length} sent`,
      );
    }

    this.fake.received.splice(0);
    for (const tag of [...sent.map((record) => record.expectation.tag), ...valid.map((v) => v.tag)]) {
      if (tag !== undefined) {
        this.#typed.delete(tag);
        this.#unknown.delete(tag);
      }
    }
    return {
      violations,
      cases: sent.length,
      faults: sent.filter((record) => record.expectation.bad).length,
      messagesChecked: checked,
      messagesLost: lost,
      byMutation,
    };

    function failed(violation: string): BatchOutcome {
      return { violations: [violation], cases: 0, faults: 0, messagesChecked: 0, messagesLost: 0, byMutation: new Map() };
    }
  }

  /** Waits until the reply to `key` arrived (then one more turn, for what follows it), briefly: the batch's end checks replies for good. */
  async #untilReplied(key: string | undefined): Promise<void> {
    const deadline = performance.now() + ATTRIBUTION_WAIT_MS;
    let scanned = 0;
    while (key !== undefined && performance.now() < deadline) {
      const received = this.fake.received;
      let found = false;
      for (; scanned < received.length && !found; scanned++) {
        const record = received[scanned] as unknown as Record<string, unknown>;
        found = !Object.hasOwn(record, "method") && Object.hasOwn(record, "id") && replyKey(record.id) === key;
      }
      if (found) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await new Promise((resolve) => setImmediate(resolve));
  }

  /** The client's replies to server requests, by id key, once every expected one arrived (or the bound passed). */
  async #repliesFor(sent: readonly SentCase[]): Promise<Map<string, Record<string, unknown>[]>> {
    const wanted = sent.filter((record) => record.expectation.reply?.count === "one").length;
    const deadline = performance.now() + SETTLE_BOUND_MS;
    let replies = this.#replies();
    while (countAll(replies) < wanted && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      replies = this.#replies();
    }
    return replies;
  }

  #replies(): Map<string, Record<string, unknown>[]> {
    const replies = new Map<string, Record<string, unknown>[]>();
    for (const message of this.fake.received) {
      const record = message as unknown as Record<string, unknown>;
      if (Object.hasOwn(record, "method") || !Object.hasOwn(record, "id")) continue;
      const key = replyKey(record.id);
      replies.set(key, [...(replies.get(key) ?? []), record]);
    }
    return replies;
  }
}

/** The client for a config: validation by the generated validators or none; a tool and the approval policy, or a handler per request method answering its schema's valid result. */
export function clientOptions(catalogue: Catalogue, config: SessionConfig): CodexClientOptions {
  const validate = config.validate ? catalogue.validators : false;
  if (config.answering === "library defaults") {
    const tool: DynamicTool = { name: "tool-v", description: "answers ok", inputSchema: { type: "object" }, handler: () => "ok" };
    return { validate, tools: [tool], approvals: "decline", requestTimeoutMs: 10_000 };
  }
  const handlers: Record<string, () => unknown> = {};
  for (const entry of catalogue.entries) {
    if (entry.kind === "request" && entry.result) handlers[entry.method] = () => structuredClone(entry.result!.params);
  }
  return { validate, handlers: handlers as CodexClientOptions["handlers"] & Partial<Record<ServerRequestMethod, unknown>>, requestTimeoutMs: 10_000 };
}

/**
 * Whether a client configured as `clientOptions` makes it answers a server request of a method:
 * with library defaults, every request but the two no option of the config answers (no token
 * refresh hook, no attestation); with handlers, the methods that have one.
 */
function answeredBy(catalogue: Catalogue, config: SessionConfig): (method: string) => boolean {
  const requests = catalogue.entries.filter((entry) => entry.kind === "request");
  const answered =
    config.answering === "library defaults"
      ? requests.filter((entry) => !UNANSWERED_BY_DEFAULT.has(entry.method))
      : requests.filter((entry) => entry.result !== undefined);
  const methods = new Set(answered.map((entry) => entry.method));
  return (method) => methods.has(method);
}

const UNANSWERED_BY_DEFAULT: ReadonlySet<string> = new Set(["account/chatgptAuthTokens/refresh", "attestation/generate"]);

/** An agent-message delta: whether its text must reach the live turn's text$ (valid, routed to the live turn and item) or may (at most once). */
function textRoleOf(expectation: Expectation, ids: { thread: string; turn: string; item: string }): SentCase["text"] {
  if (expectation.method !== "item/agentMessage/delta" || expectation.shape !== "notification") return undefined;
  const params = expectation.message?.params as Record<string, unknown> | undefined;
  const routed = params?.threadId === ids.thread && params?.turnId === ids.turn && params?.itemId === ids.item;
  return !expectation.bad && routed ? "must" : "may";
}

/** The text of an item/completed case's agent message, which text$ may carry whole. */
function wholeTextOf(expectation: Expectation): string[] {
  if (expectation.method !== "item/completed") return [];
  const item = (expectation.message?.params as { item?: { type?: unknown; text?: unknown } } | undefined)?.item;
  return item?.type === "agentMessage" && typeof item.text === "string" && item.text !== "" ? [item.text] : [];
}

function describe(record: SentCase): string {
  const { step, expectation } = record;
  const what = `${step.method} / ${record.mutation}${record.detail ? ` (${record.detail.slice(0, 80)})` : ""}`;
  return `[${what}; ${expectation.shape}${expectation.bad ? `, bad${expectation.why ? `: ${expectation.why}` : ""}` : ""}]`;
}

function count(map: Map<number, number>, tag: unknown): void {
  if (typeof tag === "number") map.set(tag, (map.get(tag) ?? 0) + 1);
}

function countAll(replies: Map<string, unknown[]>): number {
  let total = 0;
  for (const list of replies.values()) total += list.length;
  return total;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 80) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

type Settled = { settled: "resolved"; value: unknown } | { settled: "rejected"; error: unknown } | { settled: "pending" };

/** How `promise` ended within `ms`: resolved, rejected, or still pending. Never rejects. */
export function outcomeWithin(promise: Promise<unknown>, ms: number): Promise<Settled> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise.then(
      (value): Settled => ({ settled: "resolved", value }),
      (error: unknown): Settled => ({ settled: "rejected", error }),
    ),
    new Promise<Settled>((resolve) => (timer = setTimeout(() => resolve({ settled: "pending" }), ms))),
  ]).finally(() => clearTimeout(timer));
}
