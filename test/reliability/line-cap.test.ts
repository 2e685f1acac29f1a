// The line cap through the whole client (fake server → NDJSON transport → connection → client): a
// line over `maxLineBytes` is dropped and reported as an `oversize-line` diagnostic with its exact
// size in bytes, whatever its text, its line ending and the chunks it arrives in; the messages
// around it all arrive, and the connection keeps answering requests. The cap is small here so the
// test is cheap; the mechanism is the same at the default 128 MiB. RELIABILITY_LONG=1 sends ten
// times as many lines.
import { afterAll, expect, it } from "vitest";
import { FakeAppServer } from "@codex-rpc/testing";
import { CodexClient, RequestTimeoutError, type ConnectionDiagnostic } from "@codex-rpc/core";
import { clientInternals } from "@codex-rpc/core/testing";
import { RELIABILITY_LONG, recordReliability } from "./support/reliability-report.js";

const CAP = 64 * 1024;
const MESSAGES = RELIABILITY_LONG ? 20_000 : 2_000;
/** One oversize line after every this many messages. */
const OVERSIZE_EVERY = 10;
const utf8 = new TextEncoder();
const byteLength = (text: string) => utf8.encode(text).length;

let cases = 0;
let faults = 0;
let messagesChecked = 0;
/** Expected messages that did not arrive (counted before the assertion fails the test). */
let messagesLost = 0;
afterAll(() => recordReliability({ area: "line cap: oversize lines through the client", cases, faults, messagesChecked, messagesLost }));

/** Counts the expected messages against those that arrived, then asserts they are equal. */
function check(got: readonly string[], expected: readonly string[]): void {
  const arrived = new Set(got);
  messagesChecked += expected.length;
  messagesLost += expected.filter((message) => !arrived.has(message)).length;
  expect(got).toEqual(expected);
}

async function connect() {
  const server = new FakeAppServer({ framing: "ndjson", maxLineBytes: CAP });
  const client = await CodexClient.connect(server.transport);
  const oversize: ConnectionDiagnostic[] = [];
  client.diagnostics$.subscribe((diagnostic) => {
    if (diagnostic.kind === "oversize-line") oversize.push(diagnostic);
  });
  return { server, client, oversize };
}

/** Text of exactly `bytes` bytes of UTF-8: `pattern` repeated, then ASCII to make up the rest. */
function fill(bytes: number, pattern: string): string {
  const body = pattern.repeat(Math.floor(bytes / byteLength(pattern)));
  return body + "x".repeat(bytes - byteLength(body));
}

/** A notification line of exactly `bytes` bytes (without its line ending). */
function notificationOfSize(name: string, bytes: number, pattern: string): string {
  const frame = (pad: string) => JSON.stringify({ method: "thread/name/updated", params: { threadId: "t", threadName: name, pad } });
  return frame(fill(bytes - byteLength(frame("")), pattern));
}

/** The lines over the cap, by what they hold; each kind in turn, in growing sizes. */
const OVERSIZE_KINDS = [
  { kind: "ASCII JSON", line: (bytes: number) => notificationOfSize("never seen", bytes, "a") },
  // Two-, three- and four-byte characters: the size is in bytes, not characters.
  { kind: "non-ASCII JSON", line: (bytes: number) => notificationOfSize("never seen", bytes, "é€😀") },
  { kind: "not JSON", line: (bytes: number) => `not json ${fill(bytes - 9, "garbage ")}` },
] as const;

/** Sizes just over the cap and well over it (up to five times, so it spans many chunks). */
const oversizeBytes = (n: number) => [CAP + 1, CAP + 2, 2 * CAP + 3, 5 * CAP + 7][n % 4]!;

/** The stream cut at pseudo-random places: pieces from 1 byte to 24 KiB, many inside characters. */
function cut(bytes: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let seed = 12345;
  for (let start = 0; start < bytes.length; ) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const size = seed % 5 === 0 ? 1 + (seed % 3) : 1 + (seed % (24 * 1024));
    chunks.push(bytes.slice(start, start + size));
    start += size;
  }
  return chunks;
}

it(
  `reports every line over the cap with its exact size and delivers all ${MESSAGES.toLocaleString("en")} messages around them`,
  async () => {
    const { server, client, oversize } = await connect();
    const names: string[] = [];
    client.notifications("thread/name/updated").subscribe(({ threadName }) => names.push(String(threadName)));

    const lines: string[] = [];
    const expectedNames: string[] = [];
    const expectedSizes: number[] = [];
    for (let n = 0; n < MESSAGES; n++) {
      // Every 50th message is exactly at the cap (with a CRLF ending half the time): still accepted.
      const atCap = n % 50 === 25;
      const message = atCap
        ? notificationOfSize(`m${n}`, CAP, n % 100 === 25 ? "a" : "é")
        : JSON.stringify({ method: "thread/name/updated", params: { threadId: "t", threadName: `m${n}` } });
      lines.push(message + (atCap && n % 100 === 75 ? "\r\n" : "\n"));
      expectedNames.push(`m${n}`);
      if (n % OVERSIZE_EVERY === OVERSIZE_EVERY - 1) {
        const k = (n - OVERSIZE_EVERY + 1) / OVERSIZE_EVERY;
        const bytes = oversizeBytes(k);
        const line = OVERSIZE_KINDS[k % OVERSIZE_KINDS.length]!.line(bytes);
        expect(byteLength(line)).toBe(bytes);
        // A CRLF ending is not part of the line's size.
        lines.push(line + (k % 2 ? "\r\n" : "\n"));
        expectedSizes.push(bytes);
      }
    }
    for (const chunk of cut(utf8.encode(lines.join("")))) server.sendRaw(chunk);

    check(names, expectedNames);
    expect(oversize.map((diagnostic) => diagnostic.bytes)).toEqual(expectedSizes);
    for (const diagnostic of oversize) expect(diagnostic.message).toContain(`a line of ${diagnostic.bytes} bytes`);
    cases += MESSAGES;
    faults += expectedSizes.length;

    // The connection is still usable.
    expect(await client.request("thread/start", {})).toMatchObject({ thread: { id: expect.any(String) } });
    expect(clientInternals(client).connection.pendingRequestCount).toBe(0);
    await client.close();
  },
  RELIABILITY_LONG ? 10 * 60_000 : 60_000,
);

it("a reply over the cap is lost to its request, which times out; the requests around it are answered", async () => {
  const { server, client, oversize } = await connect();
  const blob = "x".repeat(CAP);
  server.respond("test/huge", () => ({ result: { blob } }));
  server.respond("test/echo", (params) => ({ result: params }));

  const echoes = Array.from({ length: 100 }, (_, n) => client.requestUntyped("test/echo", { n }));
  const huge = client.requestUntyped("test/huge", {}, { timeoutMs: 200 }).catch((error: unknown) => error);
  const more = Array.from({ length: 100 }, (_, n) => client.requestUntyped("test/echo", { n: 100 + n }));

  const replies = (await Promise.all([...echoes, ...more])).map((reply) => JSON.stringify(reply));
  check(
    replies,
    Array.from({ length: 200 }, (_, n) => JSON.stringify({ n })),
  );
  const error = await huge;
  expect(error).toBeInstanceOf(RequestTimeoutError);
  expect(error).toMatchObject({ method: "test/huge" });
  const hugeRequest = server.received.find((message) => "method" in message && message.method === "test/huge") as { id: number };
  expect(oversize.map((diagnostic) => diagnostic.bytes)).toEqual([byteLength(JSON.stringify({ id: hugeRequest.id, result: { blob } }))]);
  cases += 201;
  faults += 1;

  expect(await client.requestUntyped("test/echo", { after: true })).toEqual({ after: true });
  expect(clientInternals(client).connection.pendingRequestCount).toBe(0);
  await client.close();
});
