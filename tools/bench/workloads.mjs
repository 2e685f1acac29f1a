// The benchmark's workloads, scaled from the shapes codex really sends (the fixture recorded by
// record-codex-turns.mjs): one turn of `turn/started`, `item/started`, N deltas, `item/completed`
// carrying the full text, `turn/completed` (whose items carry the agent message's text again, as
// codex 0.169.0 sends it), every line the recorded line with only the text and timestamps changed.
// The bytes are cut into 64 KiB chunks, which `deliver` hands over one per event-loop turn
// (setImmediate), as a pipe delivers them. Pure functions and data: no timing here.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const CHUNK_BYTES = 64 * 1024;
export const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), "fixtures", "codex-0.169.0-turns.jsonl");

/** The fixture's lines: `{ scenario, line, message }`, in the order codex wrote them. */
export function loadFixture(file = FIXTURE) {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((entry) => {
      const { scenario, line } = JSON.parse(entry);
      return { scenario, line, message: JSON.parse(line) };
    });
}

const DELTA_METHOD = { agent: "item/agentMessage/delta", command: "item/commandExecution/outputDelta" };
const ITEM_TYPE = { agent: "agentMessage", command: "commandExecution" };
const TEXT_FIELD = { agent: "text", command: "aggregatedOutput" };
const SCENARIO = { agent: "long-text", command: "command" };

/**
 * The recorded messages one workload kind is made of: the `turn/start` result, `turn/started`,
 * the item's `item/started`, one delta, its `item/completed` and `turn/completed`, all of one
 * scenario of the fixture.
 */
export function shapesOf(fixture, kind) {
  const scenario = SCENARIO[kind];
  if (scenario === undefined) throw new Error(`unknown workload kind ${kind}`);
  const lines = fixture.filter((entry) => entry.scenario === scenario).map((entry) => entry.message);
  const find = (what, predicate) => {
    const found = lines.find(predicate);
    if (found === undefined) throw new Error(`the fixture's ${scenario} scenario has no ${what}`);
    return found;
  };
  const itemStarted = find(`item/started of an ${ITEM_TYPE[kind]}`, (m) => m.method === "item/started" && m.params.item.type === ITEM_TYPE[kind]);
  const itemId = itemStarted.params.item.id;
  return {
    kind,
    threadId: itemStarted.params.threadId,
    turnId: itemStarted.params.turnId,
    itemId,
    turnStartResult: find("turn/start response", (m) => m.id !== undefined && m.result?.turn !== undefined).result,
    turnStarted: find("turn/started", (m) => m.method === "turn/started"),
    itemStarted,
    delta: find(DELTA_METHOD[kind], (m) => m.method === DELTA_METHOD[kind] && m.params.itemId === itemId),
    itemCompleted: find("item/completed of the item", (m) => m.method === "item/completed" && m.params.item.id === itemId),
    turnCompleted: find("turn/completed", (m) => m.method === "turn/completed"),
  };
}

const WORDS = "the change reads the file, returns the parsed value and the caller keeps it for the next step; ".split(" ");

/**
 * ASCII delta text, different for each `i`, whose JSON-escaped form is exactly `bytes` bytes
 * (a command's "\n" takes two).
 */
export function deltaText(kind, i, bytes) {
  const parts = [];
  let size = 0;
  for (let k = 0; ; k++) {
    const part =
      kind === "command" ? `line ${i + k} of the build output: compiling module ${(i + k) % 997}\n` : `${k === 0 ? i : ""} ${WORDS[(i + k) % WORDS.length]}`;
    const partBytes = part.length + (part.endsWith("\n") ? 1 : 0);
    if (size + partBytes > bytes) {
      // The part cut to the room left (a cut command line loses its newline, so 1 char = 1 byte).
      const cut = part.slice(0, bytes - size).replace(/\n$/, "");
      parts.push(cut);
      size += cut.length;
      break;
    }
    parts.push(part);
    size += partBytes;
  }
  return parts.join("") + "x".repeat(bytes - size);
}

/** Cuts bytes into 64 KiB chunks (views, no copies). */
export function chunk(bytes, size = CHUNK_BYTES) {
  const chunks = [];
  for (let offset = 0; offset < bytes.length; offset += size) chunks.push(bytes.subarray(offset, offset + size));
  return chunks;
}

/**
 * One turn of `count` deltas, each delta line exactly `lineBytes` bytes long (newline not
 * counted), shaped as the fixture's `kind` ("agent": agent-message deltas; "command": command
 * output deltas).
 */
export function codexWorkload(fixture, { kind, count, lineBytes, name }) {
  const shapes = shapesOf(fixture, kind);
  const base = shapes.delta;
  const emittedAt = base.emittedAtMs ?? 1795491306000;
  const frame = (delta, i) => JSON.stringify({ ...base, params: { ...base.params, delta }, emittedAtMs: emittedAt + i });
  // The frame's own bytes vary with the digits of emittedAtMs, which stay the same width here.
  const room = lineBytes - Buffer.byteLength(frame("", 0));
  if (room < 8) throw new Error(`a ${kind} delta line cannot be ${lineBytes} bytes: the frame alone is ${lineBytes - room}`);
  const lines = [JSON.stringify(shapes.turnStarted), JSON.stringify(shapes.itemStarted)];
  const pieces = [];
  for (let i = 0; i < count; i++) {
    const text = deltaText(kind, i, room);
    pieces.push(text);
    lines.push(frame(text, i));
  }
  const text = pieces.join("");
  const completedItem = { ...shapes.itemCompleted.params.item, [TEXT_FIELD[kind]]: text };
  lines.push(JSON.stringify({ ...shapes.itemCompleted, params: { ...shapes.itemCompleted.params, item: completedItem } }));
  const turnItems = shapes.turnCompleted.params.turn.items.map((item) =>
    item.type === "agentMessage" && kind === "agent" ? { ...item, id: shapes.itemId, text } : item,
  );
  lines.push(
    JSON.stringify({ ...shapes.turnCompleted, params: { ...shapes.turnCompleted.params, turn: { ...shapes.turnCompleted.params.turn, items: turnItems } } }),
  );
  return finish({ name, kind, count, lines, shapes, text, completes: true });
}

/**
 * The synthetic workload of the former tools/bench-decode.mjs (information only): 200 000 agent-message
 * deltas of ~267 B with no item/started, item/completed or turn/completed around them.
 */
export function syntheticWorkload(fixture, count = 200_000) {
  const shapes = shapesOf(fixture, "agent");
  const THREAD = "019a0000-0000-7000-8000-000000000001";
  const TURN = "019a0000-0000-7000-8000-000000000002";
  const ITEM = "msg_0123456789abcdef0123456789abcdef";
  const lines = [];
  const pieces = [];
  for (let i = 0; i < count; i++) {
    const delta = ` the answer, part ${i}, continues`;
    pieces.push(delta);
    lines.push(
      JSON.stringify({ method: "item/agentMessage/delta", params: { threadId: THREAD, turnId: TURN, itemId: ITEM, delta }, emittedAtMs: 1763800000000 + i }),
    );
  }
  const turnStartResult = { turn: { ...shapes.turnStartResult.turn, id: TURN, rootTurnId: TURN } };
  return finish({
    name: "synthetic (old bench:decode, no item/started)",
    kind: "agent",
    count,
    lines,
    shapes: { ...shapes, threadId: THREAD, turnId: TURN, itemId: ITEM, turnStartResult },
    text: pieces.join(""),
    completes: false,
  });
}

function finish(w) {
  const bytes = Buffer.from(`${w.lines.join("\n")}\n`);
  const deltaLines = w.lines.filter((line) => line.includes(`"method":"${DELTA_METHOD[w.kind]}"`));
  const deltaBytes = deltaLines.length === 0 ? 0 : Buffer.byteLength(deltaLines[0]);
  return {
    ...w,
    bytes,
    chunks: chunk(bytes),
    deltaMethod: DELTA_METHOD[w.kind],
    /** Size of one delta line (the first), newline not counted. */
    deltaLineBytes: deltaBytes,
    /** Only the delta lines (no turn/item start or completion lines), as lines and chunks. */
    get deltasOnly() {
      this._deltasOnly ??= { lines: deltaLines, chunks: chunk(Buffer.from(`${deltaLines.join("\n")}\n`)) };
      return this._deltasOnly;
    },
    /** The same lines as JSON-RPC 2.0 (`"jsonrpc":"2.0"` first), for the peers that require it. */
    get rpc2() {
      this._rpc2 ??= jsonRpc2(this.lines);
      return this._rpc2;
    },
  };
}

/**
 * The lines as strict JSON-RPC 2.0 for the peers: `"jsonrpc":"2.0"` added and codex's top-level
 * `emittedAtMs` dropped (the MCP SDK's schema refuses unknown top-level keys); as NDJSON chunks and
 * as LSP (Content-Length) chunks.
 */
export function jsonRpc2(lines) {
  const rpcLines = lines.map((line) => `{"jsonrpc":"2.0",${line.slice(1).replace(/,"emittedAtMs":\d+\}$/, "}")}`);
  const ndjson = Buffer.from(`${rpcLines.join("\n")}\n`);
  const framed = Buffer.concat(
    rpcLines.map((line) => {
      const body = Buffer.from(line);
      return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
    }),
  );
  return { lines: rpcLines, ndjson, chunks: chunk(ndjson), contentLength: framed, contentLengthChunks: chunk(framed) };
}

/** Hands the chunks to `push` one per event-loop turn, as a pipe delivers them. */
export async function deliver(chunks, push) {
  for (const piece of chunks) {
    push(piece);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The workloads the decode benchmark runs, built one at a time (their bytes are large). */
export const WORKLOADS = [
  { name: "agent deltas 200 000 × 240 B", kind: "agent", count: 200_000, lineBytes: 240 },
  { name: "agent deltas 2 000 × 20 KB", kind: "agent", count: 2_000, lineBytes: 20_000 },
  { name: "command output 200 000 × 240 B", kind: "command", count: 200_000, lineBytes: 240 },
  { name: "command output 2 000 × 20 KB", kind: "command", count: 2_000, lineBytes: 20_000 },
];
