// Leak checks over the client and the fake server: 10 000 turns whose subscribers stay to the end,
// leave mid-turn (so the turn is interrupted), break out of a for-await loop or abort; and 10 000
// requests that time out against a responder that never answers or answers too late. Afterwards
// nothing may be left behind: no pending request or server request, no thread listener, no stream
// subscriber, no abort listener, no timer. RELIABILITY_LONG=1 runs ten times as many.
import { getEventListeners, setMaxListeners } from "node:events";
import type { Subscription } from "rxjs";
import { afterAll, expect, it } from "vitest";
import { FakeAppServer, type FakeReply, type FakeTurnScript } from "@codex-rpc/testing";
import { CodexClient, RequestTimeoutError, type CodexThread, type CodexTurn } from "@codex-rpc/core";
import { clientInternals, turnSubscriberCount } from "@codex-rpc/core/testing";
import type { ServerNotification } from "@codex-rpc/protocol";
import { RELIABILITY_LONG, recordReliability } from "./support/reliability-report.js";

const SCALE = RELIABILITY_LONG ? 10 : 1;
const TURNS = 10_000 * SCALE;
const REQUESTS = 10_000 * SCALE;
/** Turns running at once, one per thread (a thread runs one turn at a time, as in codex). */
const LANES = 100;
const REQUESTS_AT_ONCE = 1_000;
const TIMEOUT_MS = 5;
/** Long after the request's timeout, so the reply always finds it gone. */
const LATE_REPLY_MS = 50;
const TEST_TIMEOUT_MS = RELIABILITY_LONG ? 20 * 60_000 : 60_000;

/** How a turn's consumer behaves. */
const STYLES = [
  "text$ to the end",
  "events$ to the end",
  "items$ to the end",
  "for-await to the end",
  "for-await, break at the first delta",
  "all streams, left at the first delta",
  "aborted at the first delta",
] as const;
type Style = (typeof STYLES)[number];
const INTERRUPTING: ReadonlySet<Style> = new Set(["for-await, break at the first delta", "all streams, left at the first delta", "aborted at the first delta"]);

const styleOf = (i: number): Style => STYLES[i % STYLES.length]!;
/** Deltas unique to each turn: text routed to the wrong turn shows. */
const deltasOf = (i: number): string[] => [`${i}a`, ` ${i}b`, ` ${i}c`];
/** The fake holds a turn that is to be interrupted, so it cannot complete before the interrupt. */
const scriptOf = (i: number): FakeTurnScript => ({ deltas: deltasOf(i), hold: INTERRUPTING.has(styleOf(i)) });

/** What a turn's events$ shows: methods, with each delta's text. */
function describe(event: ServerNotification): string {
  return event.method === "item/agentMessage/delta" ? `delta:${event.params.delta}` : event.method;
}

function allEvents(deltas: readonly string[]): string[] {
  return ["turn/started", "item/started", ...deltas.map((delta) => `delta:${delta}`), "item/completed", "turn/completed"];
}

/** One signal shared by everything in flight: a listener each is expected, so no warning past 10. */
function longLivedSignal(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length;
}

let cases = 0;
let faults = 0;
let messagesChecked = 0;
/** Expected messages a subscriber did not get (counted before the assertion fails the test). */
let messagesLost = 0;
/** "10 000", as the issue writes it. */
const spaced = (n: number) => n.toLocaleString("en").replaceAll(",", " ");
afterAll(() =>
  recordReliability({ area: `leaks: ${spaced(TURNS)} turns, ${spaced(REQUESTS)} timed-out requests`, cases, faults, messagesChecked, messagesLost }),
);

/** Counts what a consumer should have seen against what it saw, then asserts they are equal. */
function check(got: readonly string[], expected: readonly string[]): void {
  messagesChecked += expected.length;
  messagesLost += expected.filter((message, k) => got[k] !== message).length;
  expect(got).toEqual(expected);
}

/**
 * Runs one turn in its style and checks what its consumers saw and how it ended. Starts the turn
 * synchronously, so turns started in a loop reach the fake (and take its scripts) in loop order.
 */
async function runTurn(client: CodexClient, thread: CodexThread, i: number, appSignal: AbortSignal): Promise<void> {
  const style = styleOf(i);
  const deltas = deltasOf(i);
  const abort = style === "aborted at the first delta" ? new AbortController() : undefined;
  // Most turns carry a long-lived signal (an application's "cancel everything") that never fires:
  // each turn must take its abort listener off it again.
  const turn: CodexTurn = thread.run(`turn ${i}`, { signal: abort?.signal ?? appSignal });
  const subscriptions: Subscription[] = [];
  switch (style) {
    case "text$ to the end": {
      const text: string[] = [];
      subscriptions.push(turn.text$.subscribe((delta) => text.push(delta)));
      await turn.completed;
      check(text, deltas);
      break;
    }
    case "events$ to the end": {
      const events: string[] = [];
      subscriptions.push(turn.events$.subscribe((event) => events.push(describe(event))));
      await turn.completed;
      check(events, allEvents(deltas));
      break;
    }
    case "items$ to the end": {
      const updates: string[] = [];
      subscriptions.push(turn.items$.subscribe(({ phase, item }) => updates.push(`${phase}:${item.type === "agentMessage" ? item.text : item.type}`)));
      await turn.completed;
      const grown = deltas.map((_, k) => `delta:${deltas.slice(0, k + 1).join("")}`);
      check(updates, ["started:", ...grown, `completed:${deltas.join("")}`]);
      break;
    }
    case "for-await to the end": {
      const events: string[] = [];
      for await (const event of turn) events.push(describe(event));
      check(events, allEvents(deltas));
      break;
    }
    case "for-await, break at the first delta": {
      const events: string[] = [];
      for await (const event of turn) {
        events.push(describe(event));
        if (event.method === "item/agentMessage/delta") break;
      }
      check(events, ["turn/started", "item/started", `delta:${deltas[0]}`]);
      break;
    }
    case "all streams, left at the first delta": {
      const events: string[] = [];
      const text: string[] = [];
      subscriptions.push(
        turn.events$.subscribe((event) => events.push(describe(event))),
        turn.items$.subscribe(),
        client.notifications("item/agentMessage/delta").subscribe(),
        client.unknownNotifications().subscribe(),
        turn.text$.subscribe((delta) => {
          text.push(delta);
          for (const subscription of subscriptions) subscription.unsubscribe(); // leaving never interrupts…
          void turn.interrupt(); // …asking does
        }),
      );
      await turn.completed;
      check(events, ["turn/started", "item/started", `delta:${deltas[0]}`]);
      check(text, [deltas[0]!]);
      break;
    }
    case "aborted at the first delta": {
      const text: string[] = [];
      subscriptions.push(
        turn.text$.subscribe((delta) => {
          text.push(delta);
          abort!.abort();
        }),
      );
      await turn.completed;
      // The interrupt goes out after the fake has sent the rest of the deltas in the same tick.
      check(text, deltas);
      break;
    }
  }
  const done = await turn.completed;
  for (const subscription of subscriptions) subscription.unsubscribe();
  expect(done.status).toBe(INTERRUPTING.has(style) ? "interrupted" : "completed");
  // The fold keeps folding after the subscribers left: the turn's text is whole either way.
  expect(done.finalText).toBe(deltas.join(""));
  expect(turnSubscriberCount(turn)).toBe(0);
}

it(
  `${TURNS.toLocaleString("en")} turns subscribed and unsubscribed in ${STYLES.length} ways leave no listener, subscriber, pending request or timer`,
  async () => {
    const server = new FakeAppServer({ framing: "ndjson", turns: Array.from({ length: TURNS }, (_, i) => scriptOf(i)) });
    const client = await CodexClient.connect(server.transport);
    const threads = await Promise.all(Array.from({ length: LANES }, () => client.startThread()));
    const app = longLivedSignal();
    const timersBefore = activeTimers();
    const approvals: Promise<FakeReply>[] = [];
    let settled = 0;

    for (let first = 0; first < TURNS; first += LANES) {
      const batch: Promise<void>[] = [];
      for (let i = first; i < Math.min(first + LANES, TURNS); i++) {
        batch.push(runTurn(client, threads[i - first]!, i, app.signal).then(() => void settled++));
      }
      // Server requests while turns run: each must be answered (by the default approval policy).
      for (let k = 0; k < LANES / 10; k++) {
        const params = { threadId: threads[k]!.id, turnId: "t", itemId: "i", startedAtMs: 0, command: "ls", cwd: "/", reason: null };
        approvals.push(server.request("item/commandExecution/requestApproval", params));
      }
      await Promise.all(batch);
      cases += batch.length;
    }
    for (const reply of await Promise.all(approvals)) check([JSON.stringify(reply)], [JSON.stringify({ result: { decision: "decline" } })]);

    expect(settled).toBe(TURNS);
    expect(server.received.filter((m) => "method" in m && m.method === "turn/interrupt")).toHaveLength(
      Array.from({ length: TURNS }, (_, i) => i).filter((i) => INTERRUPTING.has(styleOf(i))).length,
    );
    expect(clientInternals(client).threadListenerCount).toBe(0);
    expect(clientInternals(client).notificationSubscriberCount).toBe(0);
    expect(clientInternals(client).connection.notificationSubscriberCount).toBe(0);
    expect(clientInternals(client).connection.pendingRequestCount).toBe(0);
    expect(clientInternals(client).connection.pendingServerRequestCount).toBe(0);
    expect(server.pendingServerRequests).toBe(0);
    expect(getEventListeners(app.signal, "abort")).toHaveLength(0);
    expect(activeTimers()).toBeLessThanOrEqual(timersBefore);
    await client.close();
  },
  TEST_TIMEOUT_MS,
);

it(
  `${REQUESTS.toLocaleString("en")} requests time out against a responder that never answers or answers too late, leaving nothing pending`,
  async () => {
    const server = new FakeAppServer({ framing: "ndjson" });
    const client = await CodexClient.connect(server.transport);
    const lateReplies: Promise<FakeReply>[] = [];
    server.respond("test/stalled", () => new Promise<FakeReply>(() => {}));
    server.respond("test/late", () => {
      const reply = new Promise<FakeReply>((resolve) => setTimeout(() => resolve({ result: "too late" }), LATE_REPLY_MS));
      lateReplies.push(reply);
      return reply;
    });
    let unknownReplies = 0;
    client.diagnostics$.subscribe((diagnostic) => {
      if (diagnostic.kind === "unknown-response") unknownReplies++;
    });
    const app = longLivedSignal();
    const timersBefore = activeTimers();

    for (let first = 0; first < REQUESTS; first += REQUESTS_AT_ONCE) {
      const methods = Array.from({ length: Math.min(REQUESTS_AT_ONCE, REQUESTS - first) }, (_, k) => ((first + k) % 2 ? "test/late" : "test/stalled"));
      const outcomes = await Promise.all(
        methods.map((method, k) =>
          client.requestUntyped(method, { n: first + k }, { timeoutMs: TIMEOUT_MS, signal: app.signal }).catch((error: unknown) => error),
        ),
      );
      outcomes.forEach((outcome, k) => {
        expect(outcome).toBeInstanceOf(RequestTimeoutError);
        expect(outcome).toMatchObject({ method: methods[k], timeoutMs: TIMEOUT_MS });
      });
      cases += methods.length;
      faults += methods.length;
    }
    // Every late reply reaches the client, finds its request gone, and is only reported.
    await Promise.all(lateReplies);
    await new Promise((resolve) => setImmediate(resolve));
    messagesChecked += lateReplies.length;
    messagesLost += Math.max(0, lateReplies.length - unknownReplies);
    expect(lateReplies).toHaveLength(REQUESTS / 2);
    expect(unknownReplies).toBe(lateReplies.length);

    expect(clientInternals(client).connection.pendingRequestCount).toBe(0);
    expect(clientInternals(client).connection.pendingServerRequestCount).toBe(0);
    expect(getEventListeners(app.signal, "abort")).toHaveLength(0);
    expect(activeTimers()).toBeLessThanOrEqual(timersBefore);
    // The connection is still good for a request that gets its answer.
    expect(await client.request("thread/start", {})).toMatchObject({ thread: { id: expect.any(String) } });
    expect(clientInternals(client).connection.pendingRequestCount).toBe(0);
    await client.close();
  },
  TEST_TIMEOUT_MS,
);
