// Capability-token auth against the real codex app-server (`--ws-auth capability-token`): the
// right token connects, a wrong or missing one gives a typed error, and the token never shows up
// in anything the test captured.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import WebSocket from "ws";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CodexClient, type ConnectionDiagnostic } from "@codex-rpc/core";
import { MockResponsesProvider, createCodexHome, type CodexHome } from "@codex-rpc/testing";
import { openWebSocketTransport, WebSocketConnectError, type WebSocketConstructor } from "../src/index.js";
import { startCodexWithToken, type CodexWebSocketServer } from "./support/codex-websocket-server.js";
import { runtimeBinary } from "@codex-rpc/test-support/runtimes.js";

const TOKEN = "cap-token-7f3a9c1e5b2d4f6081a3c5e7";
const WRONG = "cap-token-0000000000000000deadbeef";
const Ws = WebSocket as unknown as WebSocketConstructor;

let provider: MockResponsesProvider;
let home: CodexHome;
let server: CodexWebSocketServer;
/** Everything the test saw: error messages and stacks, diagnostics, console output, server stderr. */
const captured: string[] = [];
const consoleMethods = ["log", "info", "warn", "error", "debug"] as const;
const originalConsole = consoleMethods.map((name) => console[name]);

beforeAll(async () => {
  consoleMethods.forEach((name, i) => {
    console[name] = (...args: unknown[]) => {
      captured.push(args.map(String).join(" "));
      originalConsole[i]!.apply(console, args);
    };
  });
  provider = await MockResponsesProvider.start({ script: [] });
  home = await createCodexHome({ provider });
  server = await startCodexWithToken(TOKEN, home.env);
});

afterAll(async () => {
  consoleMethods.forEach((name, i) => (console[name] = originalConsole[i]!));
  await server?.stop();
  await provider.close();
  await home.cleanup();
});

function capture(error: unknown): unknown {
  if (error instanceof Error) captured.push(error.message, error.stack ?? "", JSON.stringify(error), String(error.cause ?? ""));
  return error;
}

it("connects with the right token and runs the handshake", async () => {
  const client = await CodexClient.connect(await openWebSocketTransport({ url: server.url, token: TOKEN, WebSocket: Ws }));
  const diagnostics: ConnectionDiagnostic[] = [];
  client.diagnostics$.subscribe((diagnostic) => diagnostics.push(diagnostic));
  expect(client.initializeResponse.userAgent).toContain("codex");
  await client.close();
  captured.push(...diagnostics.map((diagnostic) => JSON.stringify(diagnostic)));
});

it("rejects a wrong token and a missing one with UNAUTHORIZED, naming the cause", async () => {
  const wrong = capture(await openWebSocketTransport({ url: server.url, token: WRONG, WebSocket: Ws }).catch((error: unknown) => error));
  expect(wrong).toBeInstanceOf(WebSocketConnectError);
  expect(wrong).toMatchObject({ code: "UNAUTHORIZED", status: 401, url: server.url });
  expect((wrong as Error).message).toContain("token was rejected");

  const missing = capture(await openWebSocketTransport({ url: server.url, WebSocket: Ws }).catch((error: unknown) => error));
  expect(missing).toMatchObject({ code: "UNAUTHORIZED", status: 401 });
  expect((missing as Error).message).toContain("pass `token`");
});

it("gives UNAUTHORIZED on Node 22's global WebSocket too, which does not reveal the status", () => {
  const script = `
    import { openWebSocketTransport } from "@codex-rpc/websocket";
    const error = await openWebSocketTransport({ url: ${JSON.stringify(server.url)}, token: ${JSON.stringify(WRONG)} }).catch((e) => e);
    console.log(JSON.stringify({ name: error.name, code: error.code, status: error.status ?? null, message: error.message, stack: error.stack }));
  `;
  const result = spawnSync(runtimeBinary("node22"), ["--input-type=module", "-e", script], {
    cwd: join(import.meta.dirname, ".."),
    encoding: "utf8",
    timeout: 30_000,
  });
  captured.push(result.stdout, result.stderr);
  expect(result.status, result.stderr).toBe(0);
  const error = JSON.parse(result.stdout.trim()) as { name: string; code: string; status: number | null; message: string };
  expect(error).toMatchObject({ name: "WebSocketConnectError", code: "UNAUTHORIZED", status: null });
  expect(error.message).toContain("token was most likely rejected");
});

it("never lets the token into an error, a diagnostic, a log line or the server's stderr", () => {
  captured.push(server.stderr());
  expect(captured.length).toBeGreaterThan(5);
  for (const text of captured) {
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(WRONG);
  }
});
