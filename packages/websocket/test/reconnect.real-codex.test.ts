// Reconnect against the real codex app-server: killed and restarted on the same port.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { firstValueFrom } from "rxjs";
import { filter } from "rxjs/operators";
import WebSocket from "ws";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CodexClient, ConnectionClosedError, type ClientState } from "@codex-rpc/core";
import { MockResponsesProvider, createCodexHome, reply, type CodexHome } from "@codex-rpc/testing";
import { openWebSocketTransport, type WebSocketConstructor } from "../src/index.js";
import { startCodexWebSocketServer, type CodexWebSocketServer } from "./support/codex-websocket-server.js";
import { stopProcess } from "@codex-rpc/test-support/stop-process.js";

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
let provider: MockResponsesProvider;
let home: CodexHome;
let workspace: string;
const servers: CodexWebSocketServer[] = [];

beforeAll(async () => {
  process.on("unhandledRejection", onUnhandled);
  provider = await MockResponsesProvider.start({
    script: [reply.text("first answer"), reply.hang(), reply.text("answer after the reconnect")],
  });
  home = await createCodexHome({ provider });
  workspace = await mkdtemp(join(tmpdir(), "codex-rpc-ws-"));
});

afterAll(async () => {
  for (const server of servers) await server.stop();
  await provider.close();
  await home.cleanup();
  await rm(workspace, { recursive: true, force: true });
  process.off("unhandledRejection", onUnhandled);
  expect(unhandled.map(String)).toEqual([]);
});

/** Fails with `what` (and the model requests seen so far) instead of hanging the test. */
function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms (${provider.requests.length} model requests so far)`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

it("survives the server being killed and restarted on the same port: in-flight work fails typed, the thread resumes, a new turn runs", {
  timeout: 120_000,
}, async () => {
  const env = { PATH: process.env.PATH ?? "", ...home.env };
  const first = await startCodexWebSocketServer({ env, cwd: workspace });
  servers.push(first);
  const client = await CodexClient.connect(() => openWebSocketTransport({ url: first.url, WebSocket: WebSocket as unknown as WebSocketConstructor }), {
    reconnect: { initialDelayMs: 100, maxDelayMs: 500, maxAttempts: 60 },
  });
  const states: ClientState[] = [];
  client.state$.subscribe((state) => states.push(state));

  const thread = await client.startThread({ cwd: workspace });
  expect((await within(30_000, thread.run("say something").completed, "first turn")).finalText).toBe("first answer");

  // A turn left running (the model hangs) and a request the server is frozen before it can
  // answer: both are in flight at the cut.
  const running = thread.run("this one hangs");
  await within(30_000, running.started, "the hanging turn's start");
  // `turn/started` can come before codex has asked the model: killed then, the model's script
  // would be one step behind and the turn after the reconnect would get the hanging reply (what
  // made this test fail now and then on a loaded machine).
  await within(30_000, provider.waitForRequests(2), "the hanging turn's model request");
  await stopProcess(first.pid);
  const inFlight = client.request("thread/list", {}).catch((error: unknown) => error);
  const reconnected = firstValueFrom(client.reconnections$);
  await first.signal("SIGKILL");

  const requestError = await inFlight;
  expect(requestError).toBeInstanceOf(ConnectionClosedError);
  expect(requestError).toMatchObject({ code: "CONNECTION_CLOSED", method: "thread/list" });
  await expect(running.completed).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
  await expect(running.started).resolves.toBeTypeOf("string");
  // While it is away, requests fail at once rather than wait.
  await firstValueFrom(client.state$.pipe(filter((state) => state === "reconnecting")));
  await expect(client.request("thread/list", {})).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });

  const second = await startCodexWebSocketServer({ env, cwd: workspace, port: first.port });
  servers.push(second);
  const reconnection = await within(30_000, reconnected, "reconnection");
  expect(reconnection.attempts).toBeGreaterThanOrEqual(1);
  expect(reconnection.reconnectedAt).toBeGreaterThanOrEqual(reconnection.disconnectedAt);
  expect(reconnection.cause.reason).not.toBe("closed");
  expect(reconnection.threads).toEqual([expect.objectContaining({ threadId: thread.id, resumed: true })]);
  expect(client.state).toBe("open");
  expect(client.initializeResponse.userAgent).toContain("codex");

  const after = await within(30_000, thread.run("and now?").completed, "turn after the reconnect");
  expect(after.status).toBe("completed");
  expect(after.finalText).toBe("answer after the reconnect");
  expect(states).toEqual(["open", "reconnecting", "open"]);

  await client.close();
  expect(client.state).toBe("closed");
  expect(states.at(-1)).toBe("closed");
});
