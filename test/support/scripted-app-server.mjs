// A tiny stand-in for `codex app-server` (plain Node; only --listen needs `ws`): answers the
// handshake, `thread/start` and `turn/start` with minimal valid replies, then plays a script of raw
// lines into the turn. Lets tests drive the real transports with messages codex would never send.
//
// Usage: node scripted-app-server.mjs [app-server] --script PATH [--listen ws://127.0.0.1:0]
//   stdio (default): NDJSON on stdin/stdout; exits when stdin ends.
//   --listen: one WebSocket connection on 127.0.0.1 (needs `ws`), one JSON message per text frame;
//     prints {"listening":"ws://127.0.0.1:PORT"} on stdout, exits when that connection closes.
//
// The script (JSON): { "threadId"?, "turnId"?, "resultsFile"?, "playBeforeTurnStartReply"?, "steps": [step…] },
// steps played after the `turn/start` reply (or, with playBeforeTurnStartReply, before it), in order:
//   { "line": "raw text" }          written as is (one line / one frame)
//   { "send": {…} }                 JSON.stringify'd
//   { "request": { "method", "params" }, "waitMs"?: 3000 }
//                                   a server request; waits for its reply (or waitMs)
//   { "reportReplies": "method" }   a notification `method` with params { replies } (what came back)
//   { "sleepMs": n }
// `resultsFile` gets { received: [methods], replies: [replies to server requests] } after each change,
// so a test can tell whether the server was answered even when the client died.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

export const DEFAULT_THREAD_ID = "thr_scripted";
export const DEFAULT_TURN_ID = "turn_scripted";

export function initializeResult() {
  return { userAgent: "scripted/0.169.0", codexHome: "/tmp", platformFamily: "unix", platformOs: "linux" };
}

/** A Thread with every required field (packages/protocol/generated/stable/types.d.ts). */
export function scriptedThread(id = DEFAULT_THREAD_ID) {
  const now = Math.floor(Date.now() / 1000);
  return {
    agentNickname: null,
    agentRole: null,
    cliVersion: "0.169.0",
    createdAt: now,
    cwd: "/tmp",
    ephemeral: false,
    forkedFromId: null,
    gitInfo: null,
    historyMode: "legacy",
    id,
    model: "scripted-model",
    modelProvider: "scripted",
    name: null,
    originator: null,
    parentThreadId: null,
    path: null,
    preview: "",
    projectId: null,
    reasoningEffort: null,
    recencyAt: null,
    section: null,
    sectionEnteredAt: null,
    sessionId: `session_${id}`,
    source: "appServer",
    status: { type: "idle" },
    threadSource: null,
    turns: [],
    updatedAt: now,
  };
}

export function threadStartResult(params = {}, id = DEFAULT_THREAD_ID) {
  return {
    approvalPolicy: params.approvalPolicy ?? "untrusted",
    approvalsReviewer: "user",
    cwd: "/tmp",
    disabledPluginIds: [],
    instructionSources: [],
    model: "scripted-model",
    modelProvider: "scripted",
    reasoningEffort: null,
    sandbox: { type: "readOnly" },
    serviceTier: null,
    thread: scriptedThread(id),
  };
}

export function scriptedTurn(id = DEFAULT_TURN_ID, status = "inProgress") {
  return {
    completedAt: null,
    durationMs: null,
    error: null,
    id,
    items: [],
    itemsView: "full",
    rootTurnId: null,
    startedAt: Math.floor(Date.now() / 1000),
    status,
  };
}

export function turnStartResult(id = DEFAULT_TURN_ID) {
  return { turn: scriptedTurn(id) };
}

/**
 * Serves one connection: `write(text)` sends one message; feed each incoming message to
 * `receive(text)`. The script runs once, after the first `turn/start`.
 */
function createSession(script, write) {
  const threadId = script.threadId ?? DEFAULT_THREAD_ID;
  const turnId = script.turnId ?? DEFAULT_TURN_ID;
  const results = { received: [], replies: [] };
  const waiting = new Map(); // request id → resolve
  let initialized = false;
  let nextRequestId = 0;

  const save = () => {
    if (script.resultsFile) writeFileSync(script.resultsFile, JSON.stringify(results));
  };
  const send = (message) => write(JSON.stringify(message));
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  async function play() {
    for (const step of script.steps ?? []) {
      if ("line" in step) write(step.line);
      else if ("send" in step) send(step.send);
      else if ("sleepMs" in step) await sleep(step.sleepMs);
      else if ("reportReplies" in step) send({ method: step.reportReplies, params: { replies: results.replies } });
      else if ("request" in step) {
        // String ids, as codex uses for its own requests to the client.
        const id = `scripted-${nextRequestId++}`;
        const answered = new Promise((resolve) => waiting.set(id, resolve));
        send({ id, method: step.request.method, params: step.request.params });
        await Promise.race([answered, sleep(step.waitMs ?? 3000)]);
        waiting.delete(id);
      }
    }
  }

  function receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return; // codex drops what is not JSON; so does this stand-in
    }
    if (typeof message.method !== "string") {
      // A reply to one of our requests (late ones are kept too: the test counts them).
      results.replies.push(message);
      save();
      waiting.get(message.id)?.(message);
      return;
    }
    results.received.push(message.method);
    save();
    if (message.id === undefined) return; // a notification (`initialized`)
    const reply = (result) => send({ id: message.id, result });
    const fail = (code, text) => send({ id: message.id, error: { code, message: text } });
    if (message.method === "initialize") {
      if (initialized) return fail(-32600, "Already initialized");
      initialized = true;
      return reply(initializeResult());
    }
    if (!initialized) return fail(-32600, "Not initialized");
    switch (message.method) {
      case "thread/start":
        reply(threadStartResult(message.params, threadId));
        return send({ method: "thread/started", params: { thread: scriptedThread(threadId) } });
      case "turn/start":
        if (script.playBeforeTurnStartReply) {
          // The client must hold these until it learns the turn id from the reply.
          send({ method: "turn/started", params: { threadId, turn: scriptedTurn(turnId) } });
          return void play().then(() => reply(turnStartResult(turnId)));
        }
        reply(turnStartResult(turnId));
        send({ method: "turn/started", params: { threadId, turn: scriptedTurn(turnId) } });
        return void play();
      case "turn/interrupt":
        return reply({});
      default:
        return fail(-32600, `unknown variant \`${message.method}\``);
    }
  }

  return { receive };
}

function serveStdio(script) {
  const session = createSession(script, (text) => process.stdout.write(`${text}\n`));
  let partial = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk) => {
    const lines = (partial + chunk).split("\n");
    partial = lines.pop();
    for (const line of lines) if (line.trim() !== "") session.receive(line.replace(/\r$/, ""));
  });
  process.stdin.on("end", () => process.exit(0));
}

async function serveWebSocket(script, listen) {
  const url = new URL(listen);
  if (url.hostname !== "127.0.0.1") throw new Error(`--listen must be ws://127.0.0.1:PORT (loopback only), not ${listen}`);
  const { WebSocketServer } = await import("ws");
  const server = new WebSocketServer({ host: "127.0.0.1", port: Number(url.port || 0) });
  server.once("connection", (socket) => {
    const session = createSession(script, (text) => socket.send(text));
    socket.on("message", (data, isBinary) => {
      if (!isBinary) session.receive(data.toString("utf8"));
    });
    socket.on("close", () => process.exit(0));
  });
  server.once("listening", () => {
    process.stdout.write(`${JSON.stringify({ listening: `ws://127.0.0.1:${server.address().port}` })}\n`);
  });
}

function option(args, name) {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = process.argv.slice(2);
  const scriptPath = option(args, "--script") ?? process.env.SCRIPTED_APP_SERVER_SCRIPT;
  if (!scriptPath) throw new Error("scripted-app-server: give --script PATH (or SCRIPTED_APP_SERVER_SCRIPT)");
  const script = JSON.parse(readFileSync(scriptPath, "utf8"));
  const listen = option(args, "--listen");
  if (listen) await serveWebSocket(script, listen);
  else serveStdio(script);
}
