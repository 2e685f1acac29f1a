// The peers, driven on the same bytes as ours: the MCP TypeScript SDK (its stdio `ReadBuffer`, and
// its `Client` over a transport that feeds it from a ReadBuffer, as its StdioClientTransport does)
// and vscode-jsonrpc's `MessageConnection` (on its own Content-Length framing through
// StreamMessageReader, and on NDJSON through a minimal reader written here). Each function takes
// the chunks and resolves with the number of messages its consumer saw.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ReadBuffer } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { deliver } from "./workloads.mjs";

const require = createRequire(import.meta.url);
const rpc = require("vscode-jsonrpc/node");

/** The installed version of a package (read from its package.json next to this package's node_modules). */
function versionOf(name) {
  const file = fileURLToPath(new URL(`./node_modules/${name}/package.json`, import.meta.url));
  return JSON.parse(readFileSync(file, "utf8")).version;
}

export const PEER_VERSIONS = { mcp: versionOf("@modelcontextprotocol/sdk"), vscode: versionOf("vscode-jsonrpc") };

const BIG = 2 ** 31 - 1;

/** The MCP SDK's ReadBuffer: append each chunk, read messages until none (each one zod-checked). */
export async function mcpReadBuffer(chunks, onMessage = () => {}) {
  const buffer = new ReadBuffer({ maxBufferSize: BIG });
  let n = 0;
  await deliver(chunks, (piece) => {
    buffer.append(piece);
    for (let message = buffer.readMessage(); message !== null; message = buffer.readMessage()) {
      n++;
      onMessage(message);
    }
  });
  return n;
}

/** The MCP SDK's Client (its Protocol dispatch) over a transport fed from a ReadBuffer. */
export async function mcpClient(chunks, expected) {
  const transport = {
    onmessage: undefined,
    async start() {},
    async close() {
      this.onclose?.();
    },
    async send(message) {
      if (message.method === "initialize") {
        queueMicrotask(() =>
          this.onmessage?.({
            jsonrpc: "2.0",
            id: message.id,
            result: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, serverInfo: { name: "bench", version: "0.0.0" } },
          }),
        );
      }
    },
  };
  const client = new Client({ name: "bench", version: "0.0.0" });
  await client.connect(transport);
  let n = 0;
  client.fallbackNotificationHandler = async () => {
    n++;
  };
  const buffer = new ReadBuffer({ maxBufferSize: BIG });
  await deliver(chunks, (piece) => {
    buffer.append(piece);
    for (let message = buffer.readMessage(); message !== null; message = buffer.readMessage()) transport.onmessage(message);
  });
  while (n < expected) await new Promise((resolve) => setImmediate(resolve));
  await client.close();
  return n;
}

/** A vscode-jsonrpc MessageReader for NDJSON: split lines, JSON.parse each, hand it on. */
class NdjsonReader extends rpc.AbstractMessageReader {
  #callback = () => {};
  /** The start of a line that continues in the next chunk, as byte pieces (joined once, at its end). */
  #pending = [];
  listen(callback) {
    this.#callback = callback;
    return { dispose: () => (this.#callback = () => {}) };
  }
  push(piece) {
    let start = 0;
    for (let end = piece.indexOf(10); end !== -1; start = end + 1, end = piece.indexOf(10, start)) {
      let line = piece.subarray(start, end);
      if (this.#pending.length > 0) {
        line = Buffer.concat([...this.#pending, line]);
        this.#pending = [];
      }
      if (line.length > 0) this.#callback(JSON.parse(line.toString("utf8")));
    }
    if (start < piece.length) this.#pending.push(piece.subarray(start));
  }
}

/**
 * vscode-jsonrpc's MessageConnection, every notification to one star handler. `framing`:
 * "content-length" (its StreamMessageReader on a stream fed the chunks) or "ndjson" (NdjsonReader).
 */
export async function vscodeConnection(chunks, expected, framing) {
  const output = new PassThrough();
  output.resume();
  let reader;
  let push;
  if (framing === "ndjson") {
    reader = new NdjsonReader();
    push = (piece) => reader.push(piece);
  } else {
    const input = new PassThrough({ highWaterMark: BIG });
    reader = new rpc.StreamMessageReader(input);
    push = (piece) => input.write(piece);
  }
  const connection = rpc.createMessageConnection(reader, new rpc.StreamMessageWriter(output));
  let n = 0;
  connection.onNotification(() => {
    n++;
  });
  connection.listen();
  await deliver(chunks, push);
  while (n < expected) await new Promise((resolve) => setImmediate(resolve));
  connection.dispose();
  return n;
}
