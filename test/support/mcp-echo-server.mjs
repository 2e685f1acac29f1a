// A tiny stdio MCP server for the real-codex tests, written by hand (newline-delimited JSON-RPC 2.0,
// MCP 2025-06-18): one tool `echo` that returns its `text`, and one tool `ask` that first asks the
// client (codex) for a form through `elicitation/create` and returns what came back.
// Every tool call, and every elicitation answer, is appended as a JSON line to the file named by
// the MCP_ECHO_LOG environment variable, so a test can see whether the tool ran.
import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";

const log = process.env.MCP_ECHO_LOG;
const record = (entry) => log && appendFileSync(log, `${JSON.stringify(entry)}\n`);
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);

const TOOLS = [
  {
    name: "echo",
    description: "Echoes the text back.",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  },
  {
    name: "ask",
    description: "Asks the user for their name through an elicitation, then greets them.",
    inputSchema: { type: "object", properties: {} },
  },
];

let nextId = 1;
/** Our own requests to the client, by id: what to do with the answer. */
const pending = new Map();

function callTool(id, name, args) {
  record({ event: "call", tool: name, arguments: args });
  if (name === "echo") {
    send({ id, result: { content: [{ type: "text", text: `echo: ${args?.text ?? ""}` }] } });
    return;
  }
  if (name === "ask") {
    const requestId = nextId++;
    pending.set(requestId, (answer) => {
      record({ event: "elicitation-answer", answer });
      const name = answer.result?.action === "accept" ? answer.result.content?.name : undefined;
      send({ id, result: { content: [{ type: "text", text: name ? `hello, ${name}` : `no name (${answer.result?.action ?? "error"})` }] } });
    });
    send({
      id: requestId,
      method: "elicitation/create",
      params: {
        message: "What is your name?",
        requestedSchema: { type: "object", properties: { name: { type: "string", title: "Name" } }, required: ["name"] },
      },
    });
    return;
  }
  send({ id, error: { code: -32602, message: `unknown tool ${name}` } });
}

createInterface({ input: process.stdin }).on("line", (line) => {
  if (line.trim() === "") return;
  const message = JSON.parse(line);
  if (message.method === undefined) {
    pending.get(message.id)?.(message);
    pending.delete(message.id);
    return;
  }
  if (message.id === undefined) return; // notifications (initialized, cancelled)
  switch (message.method) {
    case "initialize":
      record({ event: "initialize", capabilities: message.params?.capabilities });
      send({
        id: message.id,
        result: {
          protocolVersion: message.params?.protocolVersion ?? "2025-06-18",
          capabilities: { tools: {} },
          serverInfo: { name: "mcp-echo", version: "0.0.0" },
        },
      });
      return;
    case "tools/list":
      send({ id: message.id, result: { tools: TOOLS } });
      return;
    case "tools/call":
      callTool(message.id, message.params?.name, message.params?.arguments);
      return;
    case "ping":
      send({ id: message.id, result: {} });
      return;
    default:
      send({ id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
  }
});
