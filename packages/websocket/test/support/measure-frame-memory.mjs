// Prints what an oversize text frame costs a client: for each frame size, whether the transport
// kept it, dropped it (oversize-line) or lost the connection, and how much the client's RSS grew
// (peak, from getrusage). Each size runs in a fresh client process (Node 20 uses ws, Node 22 its
// global WebSocket) against a ws server in this process. Needs a built package (dist/).
//
//   node packages/websocket/test/support/measure-frame-memory.mjs [node22] [--cap=MiB] [MiB …]
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(join(packageDir, "package.json"));
const { WebSocketServer } = require("ws");
const { DEFAULT_MAX_LINE_BYTES } = await import("@codex-rpc/core/transport");

const args = process.argv.slice(2);
const runtime = args[0] === "node22" ? args.shift() : "node20";
const MiB = 1024 * 1024;
const capArgument = args[0]?.startsWith("--cap=") ? args.shift() : undefined;
const cap = capArgument ? Math.round(Number(capArgument.slice(6)) * MiB) : DEFAULT_MAX_LINE_BYTES;
const sizes = args.length > 0 ? args.map((mib) => Math.round(Number(mib) * MiB)) : [cap, cap + 1, 2 * cap, 2 * cap + 1, 300 * 1000 * 1000];

const binary =
  runtime === "node22"
    ? (() => {
        const root = join(packageDir, "..", "..", ".runtimes");
        return join(root, JSON.parse(readFileSync(join(root, "runtimes.json"), "utf8")).node22.path);
      })()
    : process.execPath;

/** A JSON notification of exactly `bytes` bytes. */
function frameOf(bytes) {
  const shell = JSON.stringify({ method: "big", params: { s: "" } });
  return shell.replace('"s":""', `"s":"${"x".repeat(bytes - shell.length)}"`);
}

const server = new WebSocketServer({ host: "127.0.0.1", port: 0, maxPayload: 0 });
await once(server, "listening");
server.on("connection", (socket) => {
  socket.on("message", (data) => {
    const { method, params } = JSON.parse(String(data));
    if (method === "send-frame") socket.send(frameOf(params.bytes));
    socket.send(JSON.stringify({ method: "after" }));
  });
});
const url = `ws://127.0.0.1:${server.address().port}`;

const client = `
  import { openWebSocketTransport } from "@codex-rpc/websocket";
  const [url, cap, bytes] = process.argv.slice(-3);
  const transport = await openWebSocketTransport({ url, heartbeat: false, maxMessageBytes: Number(cap) });
  const seen = [];
  let afters = 0;
  let wake = () => {};
  transport.diagnostics$.subscribe((d) => seen.push(d.kind + " " + d.bytes));
  transport.messages$.subscribe((m) => {
    if (m.method === "big") seen.push("kept");
    if (m.method === "after") afters++;
    wake();
  });
  const until = (test) => new Promise((resolve) => { wake = () => test() && resolve(true); transport.closed.then(() => resolve(false)); });
  globalThis.gc();
  const before = process.memoryUsage().rss;
  transport.send({ method: "send-frame", params: { bytes: Number(bytes) } });
  await until(() => afters === 1);
  const peak = process.resourceUsage().maxRSS * 1024;
  // Still usable?
  transport.send({ method: "ping" }).catch(() => {});
  const usable = await Promise.race([until(() => afters === 2), new Promise((r) => setTimeout(() => r(false), 5000))]);
  const info = await Promise.race([transport.closed, Promise.resolve(undefined)]);
  console.log(JSON.stringify({ seen, usable, close: info && { reason: info.reason, closeCode: info.closeCode, error: String(info.error?.message ?? "") }, before, peak }));
  await transport.close();
`;

console.log(`${runtime} (${runtime === "node22" ? "global WebSocket" : "ws"}), maxMessageBytes ${cap}`);
for (const bytes of sizes) {
  // Not spawnSync: the server runs in this process.
  const child = spawn(binary, ["--expose-gc", "--max-old-space-size=4096", "--input-type=module", "-e", client, url, String(cap), String(bytes)], {
    cwd: packageDir,
  });
  const run = { stdout: "", stderr: "" };
  child.stdout.setEncoding("utf8").on("data", (text) => (run.stdout += text));
  child.stderr.setEncoding("utf8").on("data", (text) => (run.stderr += text));
  [run.status, run.signal] = await once(child, "close");
  const line = run.stdout.trim().split("\n").pop() ?? "";
  let result;
  try {
    result = JSON.parse(line);
  } catch {
    console.log(`${bytes} bytes: the client failed (${run.status ?? run.signal}): ${run.stderr.slice(-400)}`);
    continue;
  }
  const growth = ((result.peak - result.before) / MiB).toFixed(0);
  const outcome = result.close ? `closed (${result.close.reason} ${result.close.closeCode ?? ""}: ${result.close.error})` : result.seen.join(", ");
  console.log(`${bytes} bytes (${(bytes / MiB).toFixed(1)} MiB): ${outcome}; still usable: ${result.usable}; peak RSS +${growth} MiB`);
}
server.close();
for (const socket of server.clients) socket.terminate();
