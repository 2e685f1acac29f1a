// A stand-in app-server for the benchmark's real-pipe row: reads the prepared NDJSON file into
// memory, answers `initialize` and `turn/start` (with the recorded turn given as JSON in argv[3]),
// and right after the `turn/start` reply writes the whole file to stdout, which the OS pipe then
// delivers in chunks. Any other request gets `{}`. Exits when stdin ends.
import { readFileSync } from "node:fs";

const bytes = readFileSync(process.argv[2]);
const turnStartResult = JSON.parse(process.argv[3]);
const INITIALIZE_RESULT = { userAgent: "bench/0.169.0", codexHome: "/tmp/CODEX_HOME", platformFamily: "unix", platformOs: "linux" };
let partial = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (text) => {
  const lines = (partial + text).split("\n");
  partial = lines.pop();
  for (const line of lines) {
    if (line === "") continue;
    const message = JSON.parse(line);
    if (message.id === undefined || message.method === undefined) continue;
    const result = message.method === "initialize" ? INITIALIZE_RESULT : message.method === "turn/start" ? turnStartResult : {};
    process.stdout.write(`${JSON.stringify({ id: message.id, result })}\n`);
    if (message.method === "turn/start") process.stdout.write(bytes);
  }
});
process.stdin.on("end", () => process.exit(0));
