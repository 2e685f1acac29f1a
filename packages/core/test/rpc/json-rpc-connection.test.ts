import { describe, expect, it } from "vitest";
import { CodexClient, ConnectionClosedError, RequestAbortedError, RequestTimeoutError, ServerOverloadedError } from "@codex-rpc/core";
import { clientInternals, FakeAppServer } from "@codex-rpc/core/testing";
import { connect } from "../support/connect-to-fake.js";

describe("JSON-RPC connection: overload retry, timeouts, abort (fake server)", () => {
  it("retries -32001 with backoff, then succeeds", async () => {
    const { server, client } = await connect({ overload: { "thread/start": 2 } });
    const thread = await client.startThread();
    expect(thread.id).toBe("thread-1");
    expect(server.received.filter((m) => "method" in m && m.method === "thread/start")).toHaveLength(3);
    await client.close();
  });

  it("gives up on an overload storm with a typed error after the retry bound", async () => {
    const { server, client } = await connect({ overload: { "thread/start": 100 } }, { overloadRetry: { maxRetries: 3, initialDelayMs: 1, maxDelayMs: 2 } });
    const error = await client.startThread().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerOverloadedError);
    expect(error).toMatchObject({ code: "SERVER_OVERLOADED", method: "thread/start", attempts: 4 });
    expect(server.received.filter((m) => "method" in m && m.method === "thread/start")).toHaveLength(4);
    expect(clientInternals(client).connection.pendingRequestCount).toBe(0);
    await client.close();
  });

  it("ends a request waiting out an overload backoff when the connection closes, at once", async () => {
    const { server, client } = await connect(
      { overload: { "thread/start": 100 } },
      { overloadRetry: { maxRetries: 5, initialDelayMs: 10_000, maxDelayMs: 10_000 } },
    );
    const pending = client.startThread().catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 20));
    const crashedAt = performance.now();
    server.crash();
    const error = await pending;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect(performance.now() - crashedAt).toBeLessThan(1000);
  });

  it("times out a request the server never answers, with the method and timeout in the error", async () => {
    const stalled = new FakeAppServer({ stalled: true });
    const error = await CodexClient.connect(stalled.transport, { requestTimeoutMs: 30 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toMatchObject({ code: "REQUEST_TIMEOUT", method: "initialize", timeoutMs: 30 });
    // A failed handshake closes the transport: nothing is left running.
    expect(await stalled.transport.closed).toMatchObject({ reason: "closed" });
  });

  it("rejects an aborted request with RequestAbortedError and leaves nothing pending", async () => {
    const { server, client } = await connect();
    server.respond("slow/method", () => new Promise(() => {}));
    const controller = new AbortController();
    const pending = client.requestUntyped("slow/method", {}, { signal: controller.signal });
    controller.abort("enough");
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(error).toMatchObject({ code: "REQUEST_ABORTED", method: "slow/method", requestId: 2, reason: "enough" });
    expect(clientInternals(client).connection.pendingRequestCount).toBe(0);
    await client.close();
  });
});

describe("JSON-RPC connection: replies as other servers shape them", () => {
  it('a success that also carries "error": null (JSON-RPC 1.0 style) resolves with its result', async () => {
    const { server, client } = await connect();
    const result = { data: [], nextCursor: null };
    server.respond("thread/list", () => ({ result, error: null }) as never);
    expect(await client.requestUntyped("thread/list", {})).toEqual(result);
    // An error of null without a result is still no success.
    server.respond("model/list", () => ({ error: null }) as never);
    expect(await client.requestUntyped("model/list", {}).catch((e: unknown) => e)).toMatchObject({ code: "SERVER_ERROR" });
    await client.close();
  });

  it("an answer to a server request nested deeper than codex reads becomes a -32603: codex would drop it and the turn wait for ever", async () => {
    const { server, client } = await connect();
    const diagnostics: string[] = [];
    client.diagnostics$.subscribe((d) => diagnostics.push(d.kind));
    const nested = (depth: number): unknown => (depth === 0 ? 1 : [nested(depth - 1)]);
    let depth = 0;
    client.handle("attestation/generate" as never, (() => nested(depth)) as never);
    depth = 125; // the deepest codex reads inside a reply
    expect(await server.request("attestation/generate", {})).toEqual({ result: nested(125) });
    depth = 126;
    expect(await server.request("attestation/generate", {})).toMatchObject({ error: { code: -32603, message: expect.stringContaining("nests deeper") } });
    expect(diagnostics).toEqual(["handler-error"]);
    await client.close();
  });
});
