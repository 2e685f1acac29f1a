import { firstValueFrom, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { ConnectionClosedError } from "../../src/errors/errors.js";
import type { JsonRpcMessage } from "../../src/framing/json-rpc-message.js";
import { createLoopbackTransportPair } from "../../src/transport/loopback-transport.js";
import * as transportEntry from "../../src/transport.js";

const message = (n: number): JsonRpcMessage => ({ method: "note", params: { n } });

describe("createLoopbackTransportPair", () => {
  it("is exported from @codex-rpc/core/transport", () => {
    expect(transportEntry.createLoopbackTransportPair).toBe(createLoopbackTransportPair);
  });

  it("passes the same message objects both ways, in send order", async () => {
    const [client, server] = createLoopbackTransportPair();
    const atServer: JsonRpcMessage[] = [];
    const atClient: JsonRpcMessage[] = [];
    server.messages$.subscribe((m) => atServer.push(m));
    client.messages$.subscribe((m) => atClient.push(m));
    const sent = Array.from({ length: 100 }, (_, i) => message(i));
    await Promise.all(sent.map((m) => client.send(m)));
    await server.send(message(-1));
    expect(atServer).toEqual(sent);
    expect(atServer[0]).toBe(sent[0]);
    expect(atClient).toEqual([message(-1)]);
  });

  it("delivers asynchronously, never while the sender is still running", async () => {
    const [client, server] = createLoopbackTransportPair();
    const seen: JsonRpcMessage[] = [];
    server.messages$.subscribe((m) => seen.push(m));
    const sent = client.send(message(1));
    expect(seen).toEqual([]);
    await sent;
    expect(seen).toEqual([message(1)]);
  });

  it("keeps what arrives before the first subscriber and replays it in order", async () => {
    const [client, server] = createLoopbackTransportPair();
    await client.send(message(1));
    await client.send(message(2));
    const seen: JsonRpcMessage[] = [];
    server.messages$.subscribe((m) => seen.push(m));
    await client.send(message(3));
    expect(seen).toEqual([message(1), message(2), message(3)]);
  });

  it("close() closes both ends: messages already sent arrive, then both streams complete", async () => {
    const [client, server] = createLoopbackTransportPair();
    const atServer = firstValueFrom(server.messages$.pipe(toArray()));
    const atClient = firstValueFrom(client.messages$.pipe(toArray()));
    void client.send(message(1));
    void client.send(message(2));
    await client.close();
    expect(await atServer).toEqual([message(1), message(2)]);
    expect(await atClient).toEqual([]);
    expect(await client.closed).toEqual({ reason: "closed" });
    expect(await server.closed).toEqual({ reason: "eof" });
  });

  it("close() from the server end closes the client with eof; calling it again returns the same promise", async () => {
    const [client, server] = createLoopbackTransportPair();
    const first = server.close();
    expect(server.close()).toBe(first);
    await first;
    await client.close();
    expect(await server.closed).toEqual({ reason: "closed" });
    expect(await client.closed).toEqual({ reason: "eof" });
  });

  it("rejects send on either end after close with ConnectionClosedError carrying that end's close", async () => {
    const [client, server] = createLoopbackTransportPair();
    await client.close();
    const fromClient = await client.send(message(1)).catch((error: unknown) => error);
    const fromServer = await server.send(message(1)).catch((error: unknown) => error);
    expect(fromClient).toBeInstanceOf(ConnectionClosedError);
    expect((fromClient as ConnectionClosedError).close).toEqual({ reason: "closed" });
    expect(fromServer).toBeInstanceOf(ConnectionClosedError);
    expect((fromServer as ConnectionClosedError).close).toEqual({ reason: "eof" });
  });

  it("disconnect(info) ends the other end with info, as a crashed server would", async () => {
    const [client, server] = createLoopbackTransportPair();
    const info = { reason: "exit" as const, exitCode: null, signal: "SIGKILL", stderrTail: ["boom"] };
    await server.disconnect(info);
    expect(await client.closed).toEqual(info);
    expect(await server.closed).toEqual({ reason: "closed" });
    const error = await client.send(message(1)).catch((e: unknown) => e);
    expect((error as ConnectionClosedError).close).toEqual(info);
  });

  it("completes a subscriber that comes after the close, after the backlog", async () => {
    const [client, server] = createLoopbackTransportPair();
    await client.send(message(1));
    await client.close();
    expect(await firstValueFrom(server.messages$.pipe(toArray()))).toEqual([message(1)]);
    expect(await firstValueFrom(server.diagnostics$.pipe(toArray()))).toEqual([]);
  });
});
