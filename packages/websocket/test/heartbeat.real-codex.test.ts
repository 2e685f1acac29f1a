// The heartbeat: after `intervalMs` without a frame the transport sends a probe request, and a
// peer that answers nothing within `timeoutMs` ends the transport with reason "error" and an error
// saying the heartbeat timed out. Fault cases use a `ws` server that goes deaf; the probe itself is
// checked against the real codex app-server, which must answer it without anything leaking out.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CodexClient, ConnectionClosedError, type ConnectionDiagnostic, type JsonRpcMessage, type TransportDiagnostic } from "@codex-rpc/core";
import { MockResponsesProvider, createCodexHome, type CodexHome } from "@codex-rpc/testing";
import { openWebSocketTransport, type WebSocketConstructor } from "../src/index.js";
import { startCodexWebSocketServer, type CodexWebSocketServer } from "./support/codex-websocket-server.js";
import { answerRequests, goDeaf, runScript, startFakeServer, type FakeServer } from "./support/fake-websocket-server.js";
import { stopProcess } from "@codex-rpc/test-support/stop-process.js";

const Ws = WebSocket as unknown as WebSocketConstructor;
const servers: FakeServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const isProbe = (text: string) => text.includes('"codex-rpc-heartbeat-');

/** A `ws` constructor that records every frame the client sends and receives. */
function recordingWs(sent: string[], received: string[]): WebSocketConstructor {
  return class extends WebSocket {
    constructor(...args: ConstructorParameters<typeof WebSocket>) {
      super(...args);
      this.on("message", (data) => received.push(String(data)));
    }
    override send(data: string): void {
      sent.push(data);
      super.send(data);
    }
  } as unknown as WebSocketConstructor;
}

async function fakeServer(onConnection: (socket: WebSocket) => void): Promise<FakeServer> {
  const server = await startFakeServer(onConnection);
  servers.push(server);
  return server;
}

describe("against a fake server (ws, Node 20)", () => {
  it("a server that stops answering: closed after about interval + timeout, pending requests reject typed", async () => {
    let serverSide: WebSocket | undefined;
    const server = await fakeServer((socket) => {
      serverSide = socket;
      answerRequests(socket, () => undefined); // answers only initialize
    });
    const client = await CodexClient.connect(await openWebSocketTransport({ url: server.url, WebSocket: Ws, heartbeat: { intervalMs: 300, timeoutMs: 200 } }));
    const pending = client.request("thread/list", {}).catch((error: unknown) => error);
    goDeaf(serverSide!);
    const started = performance.now();
    const error = await pending;
    const detectedMs = performance.now() - started;
    console.log(`heartbeat (ws, 300 + 200 ms): the dead peer was detected after ${Math.round(detectedMs)} ms`);
    expect(error).toBeInstanceOf(ConnectionClosedError);
    const close = (error as ConnectionClosedError).close;
    expect(close.reason).toBe("error");
    expect((close.error as Error).message).toMatch(
      /^heartbeat timed out: nothing received for \d+ ms \(a probe after 300 ms of silence got no answer within 200 ms\)$/,
    );
    expect((error as Error).message).toContain("heartbeat timed out");
    expect(detectedMs).toBeGreaterThanOrEqual(450);
    expect(detectedMs).toBeLessThan(3_000);
    expect(client.state).toBe("closed");
  });

  it("a server that answers probes stays connected, and the answers never reach the connection", async () => {
    const probes: string[] = [];
    const server = await fakeServer((socket) =>
      answerRequests(socket, (message) => {
        if (typeof message.id === "string" && message.id.startsWith("codex-rpc-heartbeat-")) probes.push(message.id);
        return {};
      }),
    );
    const transport = await openWebSocketTransport({ url: server.url, WebSocket: Ws, heartbeat: { intervalMs: 100, timeoutMs: 300 } });
    const messages: JsonRpcMessage[] = [];
    const diagnostics: TransportDiagnostic[] = [];
    transport.messages$.subscribe((message) => messages.push(message));
    transport.diagnostics$.subscribe((diagnostic) => diagnostics.push(diagnostic));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(probes.length).toBeGreaterThanOrEqual(4);
    expect(probes.slice(0, 2)).toEqual(["codex-rpc-heartbeat-1", "codex-rpc-heartbeat-2"]);
    expect(messages).toEqual([]);
    expect(diagnostics).toEqual([]);
    expect(await Promise.race([transport.closed, "open"])).toBe("open");
    await transport.close();
  });

  it("any frame counts as life: a server that answers no request but keeps talking is never probed", async () => {
    const requests: string[] = [];
    const server = await fakeServer((socket) => {
      socket.on("message", (data) => requests.push(String(data)));
      const timer = setInterval(() => socket.send(JSON.stringify({ method: "tick" })), 50);
      socket.on("close", () => clearInterval(timer));
    });
    const transport = await openWebSocketTransport({ url: server.url, WebSocket: Ws, heartbeat: { intervalMs: 200, timeoutMs: 100 } });
    transport.messages$.subscribe();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(requests).toEqual([]);
    expect(await Promise.race([transport.closed, "open"])).toBe("open");
    await transport.close();
  });

  it("`heartbeat: false` sends nothing and never gives up on a silent server", async () => {
    const requests: string[] = [];
    const server = await fakeServer((socket) => socket.on("message", (data) => requests.push(String(data))));
    const transport = await openWebSocketTransport({ url: server.url, WebSocket: Ws, heartbeat: false });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(requests).toEqual([]);
    expect(await Promise.race([transport.closed, "open"])).toBe("open");
    await transport.close();
  });

  it("rejects a heartbeat that no timer can honour before opening anything", async () => {
    for (const heartbeat of [{ intervalMs: Number.NaN }, { timeoutMs: 0 }, { intervalMs: -5 }]) {
      await expect(openWebSocketTransport({ url: "ws://127.0.0.1:1", WebSocket: Ws, heartbeat })).rejects.toThrow(RangeError);
    }
  });
});

describe.each(["node22", "deno", "bun"] as const)("under the global WebSocket of %s", (runtime) => {
  const script = `
    import { openWebSocketTransport } from "@codex-rpc/websocket";
    const out = (value) => console.log(JSON.stringify(value));
    const sent = [];
    class Recording extends WebSocket {
      send(data) { sent.push(data); super.send(data); }
    }
    const transport = await openWebSocketTransport({ url: process.argv.at(-1), WebSocket: Recording, heartbeat: { intervalMs: 300, timeoutMs: 200 } });
    const messages = [];
    transport.messages$.subscribe((m) => messages.push(m));
    transport.diagnostics$.subscribe((d) => out({ diagnostic: d }));
    const started = performance.now();
    const info = await transport.closed;
    out({ detectedMs: Math.round(performance.now() - started), reason: info.reason, error: info.error?.message, probes: sent.filter((s) => s.includes("codex-rpc-heartbeat-")).length, messages });
  `;

  it("the answered probes keep it open, and once the server goes deaf it closes with the heartbeat error", async () => {
    let answered = 0;
    const server = await fakeServer((socket) => {
      answerRequests(socket, () => {
        // Answers three probes, then goes deaf.
        if (++answered === 3) setTimeout(() => goDeaf(socket), 10);
        return {};
      });
    });
    const run = await runScript(runtime, script, { timeoutMs: 30_000, args: [server.url] });
    expect(run.exitCode, run.stderr).toBe(0);
    const result = run.results.at(-1)!;
    console.log(`heartbeat (${runtime} global WebSocket, 300 + 200 ms): closed ${String(result.detectedMs)} ms after opening, 3 probes answered first`);
    expect(result).toMatchObject({ reason: "error", probes: 4, messages: [] });
    expect(result.error).toMatch(/^heartbeat timed out/);
    // Three answered rounds (~300 ms each), then 300 + 200 ms to give up.
    expect(result.detectedMs).toBeGreaterThanOrEqual(1_300);
    expect(result.detectedMs).toBeLessThan(6_000);
    expect(run.results.filter((line) => line.diagnostic)).toEqual([]);
  });
});

describe("against the real codex app-server", () => {
  let provider: MockResponsesProvider;
  let home: CodexHome;
  let workspace: string;
  let codex: CodexWebSocketServer;

  beforeAll(async () => {
    provider = await MockResponsesProvider.start({ script: [] });
    home = await createCodexHome({ provider });
    workspace = await mkdtemp(join(tmpdir(), "codex-rpc-heartbeat-"));
    codex = await startCodexWebSocketServer({ env: { PATH: process.env.PATH ?? "", ...home.env }, cwd: workspace });
  });

  afterAll(async () => {
    await codex?.stop();
    await provider?.close();
    await home?.cleanup();
    if (workspace) await rm(workspace, { recursive: true, force: true });
  });

  it("answers every probe, before and after initialize, and nothing reaches messages or diagnostics (ws)", async () => {
    const sent: string[] = [];
    const received: string[] = [];
    const transport = await openWebSocketTransport({
      url: codex.url,
      WebSocket: recordingWs(sent, received),
      heartbeat: { intervalMs: 100, timeoutMs: 2_000 },
    });
    const messages: JsonRpcMessage[] = [];
    const diagnostics: TransportDiagnostic[] = [];
    transport.messages$.subscribe((message) => messages.push(message));
    transport.diagnostics$.subscribe((diagnostic) => diagnostics.push(diagnostic));

    await new Promise((resolve) => setTimeout(resolve, 400));
    const probesBefore = sent.filter(isProbe).length;
    await transport.send({
      id: 1,
      method: "initialize",
      params: { clientInfo: { name: "heartbeat-test", version: "0" }, capabilities: { experimentalApi: true } },
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await transport.send({ method: "initialized" });
    await new Promise((resolve) => setTimeout(resolve, 800));

    const probes = sent.filter(isProbe).map((text) => (JSON.parse(text) as { id: string }).id);
    const replies = received.filter(isProbe).map((text) => JSON.parse(text) as { id: string; error?: { code: number; message: string } });
    expect(probesBefore).toBeGreaterThanOrEqual(2);
    expect(probes.length).toBeGreaterThanOrEqual(probesBefore + 4);
    // Every probe answered, each with its own id (the last may still be on its way).
    expect(replies.map((reply) => reply.id)).toEqual(probes.slice(0, replies.length));
    expect(replies.length).toBeGreaterThanOrEqual(probes.length - 1);
    // The method is checked before the session: the same answer before and after initialize.
    for (const reply of replies) expect(reply.error).toMatchObject({ code: -32600, message: expect.stringContaining("unknown variant `codex-rpc/heartbeat`") });

    expect(messages.some((message) => JSON.stringify(message).includes("codex-rpc-heartbeat"))).toBe(false);
    expect(messages).toContainEqual(
      expect.objectContaining({ id: 1, result: expect.objectContaining({ userAgent: expect.stringContaining("heartbeat-test") }) }),
    );
    expect(diagnostics).toEqual([]);
    expect(await Promise.race([transport.closed, "open"])).toBe("open");
    await transport.close();
  });

  it("a client over a heartbeat-probed connection sees no stray responses (ws)", async () => {
    const client = await CodexClient.connect(await openWebSocketTransport({ url: codex.url, WebSocket: Ws, heartbeat: { intervalMs: 50, timeoutMs: 2_000 } }));
    const diagnostics: ConnectionDiagnostic[] = [];
    client.diagnostics$.subscribe((diagnostic) => diagnostics.push(diagnostic));
    await new Promise((resolve) => setTimeout(resolve, 500));
    await expect(client.request("thread/list", {})).resolves.toMatchObject({ data: [] });
    expect(diagnostics).toEqual([]);
    await client.close();
  });

  it("a frozen codex (SIGSTOP) is noticed: the pending request rejects with the heartbeat error (ws)", async () => {
    const frozen = await startCodexWebSocketServer({ env: { PATH: process.env.PATH ?? "", ...home.env }, cwd: workspace });
    try {
      const client = await CodexClient.connect(
        await openWebSocketTransport({ url: frozen.url, WebSocket: Ws, heartbeat: { intervalMs: 300, timeoutMs: 300 } }),
      );
      await stopProcess(frozen.pid);
      const started = performance.now();
      const error = await client.request("thread/list", {}).catch((e: unknown) => e);
      console.log(`heartbeat (ws, 300 + 300 ms) against a frozen codex: detected after ${Math.round(performance.now() - started)} ms`);
      expect(error).toBeInstanceOf(ConnectionClosedError);
      expect(error).toMatchObject({ method: "thread/list", close: { reason: "error" } });
      expect((error as Error).message).toContain("heartbeat timed out");
    } finally {
      await frozen.stop();
    }
  });

  it("answers the probes over Node 22's global WebSocket too", async () => {
    const script = `
      import { openWebSocketTransport } from "@codex-rpc/websocket";
      const sent = [];
      class Recording extends WebSocket {
        send(data) { sent.push(data); super.send(data); }
      }
      const transport = await openWebSocketTransport({ url: process.argv.at(-1), WebSocket: Recording, heartbeat: { intervalMs: 100, timeoutMs: 500 } });
      const messages = [];
      const diagnostics = [];
      transport.messages$.subscribe((m) => messages.push(m));
      transport.diagnostics$.subscribe((d) => diagnostics.push(d));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const open = (await Promise.race([transport.closed, "open"])) === "open";
      console.log(JSON.stringify({ open, probes: sent.filter((s) => s.includes("codex-rpc-heartbeat-")).length, messages, diagnostics }));
      await transport.close();
    `;
    const run = await runScript("node22", script, { timeoutMs: 30_000, args: [codex.url] });
    expect(run.exitCode, run.stderr).toBe(0);
    // Had a probe gone unanswered for 500 ms, the transport would have closed.
    expect(run.results[0]).toMatchObject({ open: true, messages: [], diagnostics: [] });
    expect(run.results[0]!.probes).toBeGreaterThanOrEqual(5);
  });
});
