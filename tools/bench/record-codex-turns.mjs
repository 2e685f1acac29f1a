#!/usr/bin/env node
// Records what the real pinned codex (0.169.0, `@openai/codex` in node_modules) writes on stdout
// during a few turns against the mock model of @codex-rpc/testing, byte for byte, and writes the
// lines as the fixture the benchmark's workloads are scaled from:
//   tools/bench/fixtures/codex-<version>-turns.jsonl
// Each fixture line is `{"scenario": …, "line": "<one NDJSON line exactly as codex wrote it>"}`,
// scrubbed: the temporary CODEX_HOME and workspace paths become `/tmp/CODEX_HOME` and
// `/tmp/CODEX_HOME/workspace`, the mock provider's port becomes 0, the user agent's OS part is
// dropped. A program, not a test; re-run it when the pinned codex changes.
//
// Usage: node tools/bench/record-codex-turns.mjs [--out FILE]
//
// Scenarios (one thread each, on one app-server):
//   long-text   one agent message of ~4 KB streamed as 48 deltas
//   command     `exec_command` of a loop printing 300 lines with pauses (streamed output),
//               approved by the client (approvalPolicy "untrusted", approvals "accept"), then a text
//   file-change `apply_patch` through exec_command (codex turns a shell apply_patch into a
//               fileChange item), approved, then a text
//   reasoning   a reasoning item of ~2 KB in 42 deltas (a ~1 KB reasoning text in 14
//               `item/reasoning/textDelta`, then two ~512 B summary parts in 14
//               `item/reasoning/summaryTextDelta` each, after their `summaryPartAdded`), then a text
//               in 4 deltas
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { importBuilt, ROOT } from "../support/built-packages.mjs";

const { CodexClient } = await importBuilt("packages/core/dist/index.js");
const { NodeStdioTransport, findCodexBinary } = await importBuilt("packages/stdio/dist/index.js");
const { MockResponsesProvider, createCodexHome, reply } = await importBuilt("packages/testing/dist/index.js");

const CODEX_VERSION = JSON.parse((await import("node:fs")).readFileSync(join(ROOT, "package.json"), "utf8")).devDependencies["@openai/codex"];
const { values: args } = parseArgs({
  options: { out: { type: "string", default: join(ROOT, "tools", "bench", "fixtures", `codex-${CODEX_VERSION}-turns.jsonl`) } },
});

const LONG_TEXT = Array.from(
  { length: 48 },
  (_, i) => `Paragraph ${i + 1} of the answer explains one more step of the change: what the function reads, what it returns, and why the caller needs it. `,
).join("");
const COMMAND = "for i in $(seq 1 300); do printf 'line %d of the build output: compiling module %d\\n' $i $i; [ $((i % 50)) -eq 0 ] && sleep 0.05; done; true";
const REASONING_TEXT = Array.from({ length: 12 }, (_, i) => `Step ${i + 1}: the caller passes the parsed value on, so the parser must keep its shape. `).join(
  "",
);
const REASONING_SUMMARY = [
  `**Reading the parser**\n\n${"The parser returns one value per line and the caller keeps each one for the next step. ".repeat(5)}`,
  `**Planning the change**\n\n${"Keep the returned shape, add the new field, and update the one caller that reads it. ".repeat(5)}`,
];
const PATCH = ["*** Begin Patch", "*** Add File: notes.md", "+# Notes", "+", "+The benchmark fixture was recorded here.", "*** End Patch"].join("\n");

const script = [
  reply.text(LONG_TEXT, { chunks: 48 }),
  reply.execCommand({ cmd: COMMAND, sandbox_permissions: "require_escalated", justification: "Run the build" }),
  reply.text("The build printed 300 lines and succeeded.", { chunks: 6 }),
  reply.execCommand({ cmd: `apply_patch <<'EOF'\n${PATCH}\nEOF`, sandbox_permissions: "require_escalated", justification: "Write the notes" }),
  reply.text("I added notes.md.", { chunks: 4 }),
  reply.text("The parser keeps its shape.", { chunks: 4, reasoning: { text: REASONING_TEXT, summary: REASONING_SUMMARY, chunks: 14 } }),
];

const provider = await MockResponsesProvider.start({ script });
const home = await createCodexHome({ provider });
const workspace = join(home.dir, "workspace");
await mkdir(workspace);

/** Every line codex wrote on stdout, with the scenario running when its first byte arrived. */
const recorded = [];
let scenario = "handshake";
let partial = "";
const child = spawn(findCodexBinary({ env: {}, packageSearchFrom: [ROOT] }), ["app-server"], {
  cwd: workspace,
  env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...home.env },
  stdio: ["pipe", "pipe", "pipe"],
});
// A second listener beside the transport's: both see the same chunks.
child.stdout.on("data", (chunk) => {
  const lines = (partial + chunk.toString("utf8")).split("\n");
  partial = lines.pop();
  for (const line of lines) if (line !== "") recorded.push({ scenario, line });
});
const transport = new NodeStdioTransport(child, { cwd: workspace });
const client = await CodexClient.connect(transport, {
  clientInfo: { name: "codex_rpc_bench", title: "codex-rpc bench", version: "0.0.0" },
  approvals: () => "accept",
});

const outcomes = {};
try {
  for (const name of ["long-text", "command", "file-change", "reasoning"]) {
    scenario = `${name}:thread`;
    const thread = await client.startThread({ cwd: workspace, approvalPolicy: "untrusted" });
    scenario = name;
    const done = await thread.run(`Scenario ${name}`).completed;
    outcomes[name] = { status: done.status, items: done.items.map((item) => item.type) };
  }
} finally {
  scenario = "close";
  await client.close();
  await provider.close();
}

const scrub = (line) =>
  line
    .replaceAll(workspace, "/tmp/CODEX_HOME/workspace")
    .replaceAll(home.dir, "/tmp/CODEX_HOME")
    .replaceAll(provider.url, "http://127.0.0.1:0/v1")
    .replace(/"userAgent":"([^"/]*\/[^" ]*)[^"]*"/, '"userAgent":"$1"');
await home.cleanup();

const lines = recorded
  .filter((r) => !r.scenario.endsWith(":thread") && r.scenario !== "close")
  .map((r) => JSON.stringify({ scenario: r.scenario, line: scrub(r.line) }));
mkdirSync(dirname(args.out), { recursive: true });
writeFileSync(args.out, `${lines.join("\n")}\n`);
const methods = {};
for (const r of recorded) {
  const m = JSON.parse(r.line).method ?? "(response)";
  methods[`${r.scenario} ${m}`] = (methods[`${r.scenario} ${m}`] ?? 0) + 1;
}
console.log(`recorded ${lines.length} lines from codex ${CODEX_VERSION} into ${args.out}`);
console.log(JSON.stringify(outcomes));
for (const [key, n] of Object.entries(methods)) console.log(`  ${String(n).padStart(4)}  ${key}`);
const missing = [
  "item/agentMessage/delta",
  "item/commandExecution/outputDelta",
  "item/reasoning/textDelta",
  "item/reasoning/summaryPartAdded",
  "item/reasoning/summaryTextDelta",
].filter((m) => !recorded.some((r) => r.line.includes(`"method":"${m}"`)));
if (!recorded.some((r) => r.line.includes('"type":"fileChange"')))
  console.log("no fileChange item was recorded (apply_patch through exec_command was not intercepted)");
if (missing.length > 0) {
  console.error(`missing from the recording: ${missing.join(", ")}`);
  process.exit(1);
}
