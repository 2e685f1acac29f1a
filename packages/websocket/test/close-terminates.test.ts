// `close()` ends the connection even when the server never answers the close frame: after
// closeTimeoutMs the socket is dropped, so a program whose last act is `await transport.close()`
// exits by itself (left alone, ws would keep it alive 30 s, Bun 36 s, Node 22 and Deno forever).
import WebSocket from "ws";
import { afterEach, expect, it } from "vitest";
import { openWebSocketTransport, type WebSocketConstructor } from "../src/index.js";
import { answerRequests, goDeaf, runScript, startFakeServer, type FakeServer, type ScriptRuntime } from "./support/fake-websocket-server.js";

const servers: FakeServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function deafServer(): Promise<FakeServer> {
  const server = await startFakeServer(goDeaf);
  servers.push(server);
  return server;
}

it("`await using` a transport closes it when the block ends", async () => {
  const server = await startFakeServer((socket) => answerRequests(socket));
  servers.push(server);
  let transport: Awaited<ReturnType<typeof openWebSocketTransport>>;
  {
    await using opened = await openWebSocketTransport({ url: server.url, WebSocket: WebSocket as unknown as WebSocketConstructor });
    transport = opened;
  }
  expect(await transport.closed).toMatchObject({ reason: "closed" });
});

it("drops the TCP connection after closeTimeoutMs when the close frame gets no answer", async () => {
  const server = await deafServer();
  const sockets: WebSocket[] = [];
  const Recording = class extends WebSocket {
    constructor(...args: ConstructorParameters<typeof WebSocket>) {
      super(...args);
      sockets.push(this);
    }
  } as unknown as WebSocketConstructor;
  const transport = await openWebSocketTransport({ url: server.url, WebSocket: Recording, closeTimeoutMs: 300 });
  const started = performance.now();
  await transport.close();
  const closeMs = performance.now() - started;
  expect(await transport.closed).toMatchObject({ reason: "closed" });
  expect(closeMs).toBeGreaterThanOrEqual(250);
  expect(closeMs).toBeLessThan(5_000);
  const tcp = (sockets[0] as unknown as { _socket: { destroyed: boolean } | null })._socket;
  expect(tcp === null || tcp.destroyed).toBe(true);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(sockets[0]!.readyState).toBe(WebSocket.CLOSED);
});

const program = `
  import { openWebSocketTransport } from "@codex-rpc/websocket";
  const transport = await openWebSocketTransport({ url: process.argv.at(-1) });
  const started = performance.now();
  process.on("exit", () => console.log(JSON.stringify({ exitAfterCloseMs: Math.round(performance.now() - started) })));
  await transport.close();
  console.log(JSON.stringify({ closeMs: Math.round(performance.now() - started), info: await transport.closed }));
`;

for (const [runtime, what] of [
  ["node20", "ws"],
  ["node22", "its global WebSocket"],
  ["deno", "its global WebSocket"],
  ["bun", "its global WebSocket"],
] as Array<[ScriptRuntime, string]>) {
  it(`a ${runtime} program (${what}) whose server never answers the close frame exits by itself soon after close()`, async () => {
    const server = await deafServer();
    const run = await runScript(runtime, program, { timeoutMs: 25_000, args: [server.url] });
    const exit = run.results.find((result) => "exitAfterCloseMs" in result)?.exitAfterCloseMs;
    console.log(`${runtime}: close() resolved after ${String(run.results[0]?.closeMs)} ms; the process exited ${String(exit)} ms after close() began`);
    expect(run.timedOut, "the program did not exit by itself").toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.results[0]).toMatchObject({ info: { reason: "closed" } });
    // The default closeTimeoutMs is 1 s; anything near ws's 30 s would mean the socket was left open.
    expect(exit).toBeLessThan(10_000);
  });
}
