// What the real codex 0.169.0 (`--ws-auth capability-token`) echoes of a token that reaches a
// thread (a prompt quoting it, a model repeating it), measured on the raw frames, and that none of
// it reaches the client: the WebSocket transport takes the token out of every frame by value.
import WebSocket from "ws";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CodexClient, type ConnectionDiagnostic } from "@codex-rpc/core";
import { MockResponsesProvider, createCodexHome, reply, type CodexHome } from "@codex-rpc/testing";
import { openWebSocketTransport, type WebSocketConstructor } from "../src/index.js";
import { startCodexWithToken, type CodexWebSocketServer } from "./support/codex-websocket-server.js";

const TOKEN = "cap-token-Qm4x9Lr2Vt7Kp1Zc8Wn3Hs6B";

/** `ws`, recording every frame as it arrived (before the transport reads it). */
function recordingWs(received: string[]): WebSocketConstructor {
  return class extends WebSocket {
    constructor(...args: ConstructorParameters<typeof WebSocket>) {
      super(...args);
      this.on("message", (data) => received.push(String(data)));
    }
  } as unknown as WebSocketConstructor;
}

let provider: MockResponsesProvider;
let home: CodexHome;
let dir: string;
let server: CodexWebSocketServer & { readonly dir: string };

beforeAll(async () => {
  provider = await MockResponsesProvider.start({
    script: [
      reply.text(`You told me ${TOKEN}; I will not repeat it.`),
      // A model streaming the token in two deltas: no frame holds it whole.
      reply.text([`Split: ${TOKEN.slice(0, 12)}`, `${TOKEN.slice(12)} (end)`]),
    ],
  });
  home = await createCodexHome({ provider });
  server = await startCodexWithToken(TOKEN, home.env);
  dir = server.dir;
});

afterAll(async () => {
  await server?.stop();
  await provider?.close();
  await home?.cleanup();
});

it("codex echoes the token in the user's message and the model's answer; the client gets [REDACTED] in both", async () => {
  const raw: string[] = [];
  const client = await CodexClient.connect(await openWebSocketTransport({ url: server.url, token: TOKEN, WebSocket: recordingWs(raw) }));
  const diagnostics: ConnectionDiagnostic[] = [];
  client.diagnostics$.subscribe((diagnostic) => diagnostics.push(diagnostic));
  const thread = await client.startThread({ cwd: dir });
  const done = await thread.run(`Remember this capability token: ${TOKEN}`).completed;
  const read = await client.request("thread/read", { threadId: thread.id, includeTurns: true });
  await client.close();

  // Measured: which of codex's frames held the token (the method, or "reply" for an answer).
  const echoes = raw.filter((frame) => frame.includes(TOKEN)).map((frame) => (JSON.parse(frame) as { method?: string }).method ?? "reply");
  console.log(`codex 0.169.0 frames holding the token: ${echoes.length} of ${raw.length}: ${[...new Set(echoes)].join(", ")}`);
  expect(echoes.length).toBeGreaterThan(0);

  expect(done.finalText).toBe("You told me [REDACTED]; I will not repeat it.");
  const userMessage = done.items.find((item) => item.type === "userMessage");
  expect(JSON.stringify(userMessage)).toContain("Remember this capability token: [REDACTED]");
  const seen = JSON.stringify([done, read, diagnostics]);
  expect(seen).not.toContain(TOKEN);
  expect(seen).toContain("[REDACTED]");
});

it("the known limit: a token streamed across two deltas is whole in no frame, so the joined deltas hold it; the completed item does not", async () => {
  const client = await CodexClient.connect(
    await openWebSocketTransport({ url: server.url, token: TOKEN, WebSocket: WebSocket as unknown as WebSocketConstructor }),
  );
  const thread = await client.startThread({ cwd: dir });
  const turn = thread.run("Say it in two pieces");
  const deltas: string[] = [];
  turn.text$.subscribe((piece) => deltas.push(piece));
  const done = await turn.completed;
  await client.close();
  console.log(`deltas: ${JSON.stringify(deltas)}; finalText: ${JSON.stringify(done.finalText)}`);
  expect(deltas.join("")).toContain(TOKEN);
  expect(done.finalText).toBe("Split: [REDACTED] (end)");
});
