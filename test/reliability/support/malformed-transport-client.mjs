// A user's program, run as its own Node process by malformed-over-transports.test.ts: connects a
// CodexClient to the scripted app-server through a real transport, runs one turn and prints what it
// saw as one JSON line. It catches nothing on purpose (no try/catch, no process handlers): if the
// library lets an error escape, this process dies, which is what the test looks for.
//
// Usage: node malformed-transport-client.mjs <stdio SCRIPT_PATH | ws URL> <handler case or "none">
import { CodexClient } from "@codex-rpc/core";
import { spawnCodexAppServer } from "@codex-rpc/stdio";
import { openWebSocketTransport } from "@codex-rpc/websocket";
import WebSocket from "ws";
import { fileURLToPath } from "node:url";

// Exit 0 only by reaching the last line: an empty event loop (a promise that never settles) is not success.
process.exitCode = 3;

const [mode, target, handlerCase] = process.argv.slice(2);
const SERVER = fileURLToPath(new URL("../../support/scripted-app-server.mjs", import.meta.url));

/** Handlers that fail in ways String() and `instanceof Error` do not expect. */
const HANDLERS = {
  "throws-null-prototype": () => {
    throw Object.create(null);
  },
  "rejects-unprintable": () =>
    Promise.reject({
      toString() {
        throw new Error("toString of the rejection reason throws");
      },
    }),
};

const transport =
  mode === "stdio" ? await spawnCodexAppServer({ codexPath: SERVER, args: ["--script", target] }) : await openWebSocketTransport({ url: target, WebSocket });

const handler = HANDLERS[handlerCase];
const client = await CodexClient.connect(transport, {
  handlers: handler ? { "item/commandExecution/requestApproval": handler } : {},
  requestTimeoutMs: 10_000,
});
const diagnostics = [];
client.diagnostics$.subscribe((diagnostic) => diagnostics.push({ kind: diagnostic.kind, message: diagnostic.message.slice(0, 300) }));
// The scripted server echoes what its requests got back as an untyped notification.
const replies = [];
client.unknownNotifications().subscribe((notification) => {
  if (notification.method === "scripted/replies") replies.push(...notification.params.replies);
});

const thread = await client.startThread();
const turn = thread.run("hello");
const deltas = [];
turn.text$.subscribe((delta) => deltas.push(delta));
const done = await turn.completed;
await client.close();

console.log(JSON.stringify({ completed: true, status: done.status, finalText: done.finalText, deltas, diagnostics, replies }));
process.exitCode = 0;
