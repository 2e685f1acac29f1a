// The `protocols` option on every runtime: what each WebSocket really puts in the upgrade request
// (`Sec-WebSocket-Protocol`, and `Authorization` when a token goes with it), measured by a server
// that records the headers, and what a refusal by a relay reads like there. Node 20 uses `ws`
// (`new WebSocket(url, protocols, options)`), Node 22, Deno and Bun their global WebSocket
// (`(url, protocols)`, or `(url, { protocols, headers })` with a token).
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { WebSocketServer } from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RELAY_DISCOVERY_PATH, RELAY_SUBPROTOCOL } from "../src/index.js";
import { runScript, type ScriptRuntime } from "./support/fake-websocket-server.js";

const TOKEN = "relay-token-Zx9_-Q3m8WkP0aLs2Vd7";
const CAPABILITY = "cap-token-1b2c3d4e5f60718293a4";

interface Seen {
  readonly path: string;
  readonly protocol: string | undefined;
  readonly authorization: string | undefined;
}
const seen: Seen[] = [];
let server: Server;
let url: string;

beforeAll(async () => {
  // Like the relay: selects codex-rpc.v1, refuses a wrong token with 401 before the upgrade, and answers its discovery document.
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (protocols) => (protocols.has(RELAY_SUBPROTOCOL) ? RELAY_SUBPROTOCOL : false) });
  server = createServer((request, response) => {
    if (request.url === RELAY_DISCOVERY_PATH) response.writeHead(200, { "content-type": "application/json" }).end("{}");
    else response.writeHead(404).end();
  });
  server.on("upgrade", (request: IncomingMessage, socket, head) => {
    seen.push({ path: request.url ?? "", protocol: request.headers["sec-websocket-protocol"], authorization: request.headers.authorization });
    if (!request.headers["sec-websocket-protocol"]?.includes(`codex-rpc.token.${TOKEN}`)) {
      socket.end("HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => ws.close(1000));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  url = `ws://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const SCRIPT = `
  import { openRelayTransport, openWebSocketTransport } from "@codex-rpc/websocket";
  const [url, token, capability, runtime] = process.argv.slice(-4);
  const report = (step, value) => console.log(JSON.stringify({ step, ...value }));
  const relay = await openRelayTransport({ url: url + "/" + runtime + "/relay", token, heartbeat: false });
  report("relay", { opened: true });
  await relay.close();
  const both = await openWebSocketTransport({ url: url + "/" + runtime + "/both", token: capability, protocols: ["codex-rpc.v1", "codex-rpc.token." + token], heartbeat: false });
  report("both", { opened: true });
  await both.close();
  const error = await openRelayTransport({ url: url + "/" + runtime + "/wrong", token: "not-the-token", heartbeat: false }).catch((e) => e);
  report("wrong", { code: error.code, status: error.status ?? null, message: error.message });
`;

const RUNTIMES: ScriptRuntime[] = ["node20", "node22", "deno", "bun"];

describe.each(RUNTIMES)("protocols under %s", (runtime) => {
  let results: Record<string, unknown>[] = [];
  beforeAll(async () => {
    const run = await runScript(runtime, SCRIPT, { timeoutMs: 40_000, args: [url, TOKEN, CAPABILITY, runtime] });
    results = run.results;
    console.log(`${runtime}: ${JSON.stringify(seen.filter((entry) => entry.path.startsWith(`/${runtime}/`)))}`);
    expect(run.exitCode, run.stderr).toBe(0);
  }, 60_000);

  // ws joins them with "," and the others with ", " (measured); the header means the same either way.
  const header = (step: string) => {
    const entry = seen.find((candidate) => candidate.path === `/${runtime}/${step}`);
    return entry && { ...entry, protocol: entry.protocol?.split(",").map((name) => name.trim()) };
  };
  const OFFERED = ["codex-rpc.v1", `codex-rpc.token.${TOKEN}`];

  it("sends the subprotocols, and the relay's selection opens the connection", () => {
    expect(results.find((result) => result.step === "relay")).toMatchObject({ opened: true });
    expect(header("relay")).toEqual({ path: `/${runtime}/relay`, protocol: OFFERED, authorization: undefined });
  });

  it("sends subprotocols and the Authorization header together", () => {
    expect(results.find((result) => result.step === "both")).toMatchObject({ opened: true });
    expect(header("both")).toMatchObject({ protocol: OFFERED, authorization: `Bearer ${CAPABILITY}` });
  });

  it("says the relay refused the token, never codex, and never quotes it", () => {
    const wrong = results.find((result) => result.step === "wrong") as { code: string; status: number | null; message: string };
    expect(wrong.code).toBe("UNAUTHORIZED");
    expect(wrong.message).toMatch(/relay/);
    expect(wrong.message).not.toMatch(/codex answers|--ws-auth/);
    expect(wrong.message).not.toContain("not-the-token");
    expect(wrong.message).toMatch(runtime === "node22" ? /discovery document answered/ : /refused by the relay with HTTP 401/);
  });
});
