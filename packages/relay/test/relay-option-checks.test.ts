// Review 7, finding 3: every numeric option of startRelay and RelayMultiplexer is checked before
// anything starts (NaN, 0, -1 or "8M" used to turn the size or rate limit off: `ws` takes a
// maxPayload ≤ 0 or NaN as no limit, and a NaN bucket admits everything), and a partial rateLimit
// takes the missing field from the default. Against the in-memory FakeAppServer.
import { afterEach, describe, expect, it } from "vitest";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { RelayCloseCode, type RelayHandle, RelayMultiplexer, type RelayMultiplexerOptions, type RelayOptions, startRelay } from "../src/index.js";
import { openPage, tick } from "./support/fake-peer.js";

const relays: RelayHandle[] = [];
afterEach(async () => {
  for (const relay of relays.splice(0)) await relay.close();
});

/** What startRelay threw with `options` over a fresh FakeAppServer, and what reached that server. */
async function refusal(options: Record<string, unknown>): Promise<{ error: unknown; upstream: number }> {
  const server = new FakeAppServer();
  try {
    relays.push(await startRelay({ upstream: { transport: server.transport }, ...options } as RelayOptions));
    return { error: undefined, upstream: server.received.length };
  } catch (error) {
    return { error, upstream: server.received.length };
  }
}

/** What RelayMultiplexer.start threw with `options`, and what reached the app-server. */
async function muxRefusal(options: Record<string, unknown>): Promise<{ error: unknown; upstream: number }> {
  const server = new FakeAppServer();
  try {
    const mux = await RelayMultiplexer.start(server.transport, options as RelayMultiplexerOptions);
    await mux.close();
    return { error: undefined, upstream: server.received.length };
  } catch (error) {
    return { error, upstream: server.received.length };
  }
}

function expectRangeError(outcome: { error: unknown; upstream: number }, message: RegExp, label: string): void {
  expect(outcome.error, label).toBeInstanceOf(RangeError);
  expect((outcome.error as Error).message, label).toMatch(message);
  expect(outcome.upstream, `${label}: nothing reaches the app-server`).toBe(0);
}

const NOT_WHOLE_ABOVE_0 = [Number.NaN, 0, -1, 1.5, Number.POSITIVE_INFINITY, "8M", "1024"];

describe("startRelay checks its limits before it opens the app-server (review 7, F3)", () => {
  it("maxMessageBytes: a whole number above 0", async () => {
    for (const value of NOT_WHOLE_ABOVE_0) {
      expectRangeError(await refusal({ maxMessageBytes: value }), /^startRelay: maxMessageBytes must be a whole number above 0/, String(value));
    }
  });

  it("rateLimit: perSecond a number above 0, burst a whole number above 0; a field set to undefined is refused too", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ perSecond: Number.NaN, burst: 10 }, "perSecond"],
      [{ perSecond: 0, burst: 10 }, "perSecond"],
      [{ perSecond: -1, burst: 10 }, "perSecond"],
      [{ perSecond: Number.POSITIVE_INFINITY, burst: 10 }, "perSecond"],
      [{ perSecond: "5", burst: 10 }, "perSecond"],
      [{ perSecond: 5, burst: Number.NaN }, "burst"],
      [{ perSecond: 5, burst: 0 }, "burst"],
      [{ perSecond: 5, burst: 2.5 }, "burst"],
      [{ perSecond: 5, burst: undefined }, "burst"],
    ];
    for (const [rateLimit, field] of cases) {
      expectRangeError(await refusal({ rateLimit }), new RegExp(`^startRelay: rateLimit\\.${field} must be`), JSON.stringify(rateLimit));
    }
    const notAnObject = await refusal({ rateLimit: 5 });
    expect(notAnObject.error).toBeInstanceOf(TypeError);
    expect((notAnObject.error as Error).message).toMatch(/^startRelay: rateLimit must be/);
  });

  it('with isolation "process" too (its app-servers start per connection, so the check cannot wait for them)', async () => {
    const outcome = await refusal({
      isolation: "process",
      upstream: { spawn: { codexPath: "/nonexistent/codex" } },
      rateLimit: { perSecond: 5, burst: Number.NaN },
    });
    expectRangeError(outcome, /^startRelay: rateLimit\.burst must be/, "process");
  });

  it("port: a whole number from 0 to 65535 (Node's own message named options.port and came after the app-server had started)", async () => {
    for (const value of [Number.NaN, -1, 65_536, 1.5, "4510"]) {
      expectRangeError(await refusal({ port: value }), /^startRelay: port must be a whole number from 0 to 65535/, String(value));
    }
  });

  it("maxQueuedWhileStarting and rateLimit: plain objects, each limit a whole number above 0 within safe integers (review 8)", async () => {
    for (const value of [{ bytes: 1e21 }, { messages: 1e300 }, { messages: 0.5 }]) {
      expectRangeError(
        await refusal({ maxQueuedWhileStarting: value }),
        /^startRelay: maxQueuedWhileStarting\.(messages|bytes) must be a whole number above 0/,
        JSON.stringify(value),
      );
    }
    for (const [option, value] of [
      ["maxQueuedWhileStarting", "ab"],
      ["maxQueuedWhileStarting", []],
      ["rateLimit", []],
    ] as const) {
      const outcome = await refusal({ [option]: value });
      expect(outcome.error, `${option} ${JSON.stringify(value)}`).toBeInstanceOf(TypeError);
      expect((outcome.error as Error).message).toMatch(new RegExp(`^startRelay: ${option} must be \\{`));
      expect(outcome.upstream).toBe(0);
    }
    // Past the largest safe integer the message names the bound; a Map or a Date is no plain object (review 9).
    const huge = await refusal({ maxQueuedWhileStarting: { messages: 2 ** 53 } });
    expect((huge.error as Error).message).toMatch(/must be a whole number above 0 and at most 9007199254740991, not 9007199254740992$/);
    for (const value of [new Map([["messages", 0]]), new Date()]) {
      for (const option of ["maxQueuedWhileStarting", "rateLimit"]) expect((await refusal({ [option]: value })).error).toBeInstanceOf(TypeError);
    }
    // A value whose text cannot be made is still described.
    expect((await refusal({ maxMessageBytes: Object.create(null) })).error).toBeInstanceOf(RangeError);
  });

  it("a valid fractional perSecond (one message every 2 s) is accepted", async () => {
    expect((await refusal({ rateLimit: { perSecond: 0.5, burst: 1 } })).error).toBeUndefined();
  });
});

describe("RelayMultiplexer.start checks its options before the handshake (review 7, F3)", () => {
  it("rateLimit and initializeTimeoutMs", async () => {
    expectRangeError(await muxRefusal({ rateLimit: { perSecond: 5, burst: Number.NaN } }), /^RelayMultiplexer: rateLimit\.burst must be/, "burst");
    for (const value of [Number.NaN, 0, -5, 1.5, 2 ** 31]) {
      expectRangeError(
        await muxRefusal({ initializeTimeoutMs: value }),
        /^RelayMultiplexer: initializeTimeoutMs must be a whole number above 0/,
        String(value),
      );
    }
  });

  it("a partial rateLimit takes the missing field from the default (100/s, burst 200): the limit still holds", async () => {
    for (const [rateLimit, flood] of [
      [{ perSecond: 5 }, 300],
      [{ burst: 3 }, 20],
    ] as const) {
      const server = new FakeAppServer();
      const mux = await RelayMultiplexer.start(server.transport, { rateLimit } as RelayMultiplexerOptions);
      const { peer, connection } = openPage(mux);
      await tick();
      for (let id = 1; id <= flood; id++) connection.receive({ id, method: "thread/loaded/list", params: {} });
      await tick();
      expect(peer.closedWith?.code, JSON.stringify(rateLimit)).toBe(RelayCloseCode.rateLimited);
      await mux.close();
    }
  });
});
