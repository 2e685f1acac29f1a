// The conformance cases, runtime-agnostic: plain ESM that imports only @codex-rpc/core. A path
// entry (paths/*.mjs) supplies how to start and reach a server and how to kill a process; this
// runs every case against it and prints one JSON line per case: {case, pass, ms, detail}.
import { CodexClient } from "@codex-rpc/core";
import { APPROVAL_TURN, CONFORMANCE_CASES, KILL_REPORT_BOUND_MS } from "./case-list.mjs";
import { waitForModelRequests } from "./control-client.mjs";

/**
 * @typedef {object} ConformancePath
 * @property {import("./conformance-config.mjs").ConformanceConfig} config
 * @property {(scope: string) => Promise<{ transport: import("@codex-rpc/core").Transport, pid: number }>} startServer
 *   A fresh server using the scope's CODEX_HOME (and so its own mock model).
 * @property {(pid: number) => void} killProcess SIGKILL, with this runtime's API.
 * @property {(pid: number) => boolean} processExists
 */

/** A hang is a failure of that case, never a stuck run: every case has this budget. */
const CASE_TIMEOUT_MS = 20_000;

/** @param {ConformancePath} path */
export async function runConformanceCases(path) {
  for (const { id } of CONFORMANCE_CASES) {
    const started = performance.now();
    const servers = new ServerSet(path);
    let result;
    try {
      const detail = await withTimeout(CASES[id](path, servers), CASE_TIMEOUT_MS, `case timed out after ${CASE_TIMEOUT_MS} ms`);
      result = { case: id, pass: true, detail: detail ?? "" };
    } catch (error) {
      result = { case: id, pass: false, detail: describeError(error) };
    } finally {
      await servers.dispose();
    }
    console.log(JSON.stringify({ ...result, ms: Math.round(performance.now() - started) }));
  }
}

/** Each case returns a short detail for the table, or throws what went wrong. */
const CASES = {
  /** @param {ConformancePath} path @param {ServerSet} servers */
  async handshake(path, servers) {
    const { client } = await servers.connect("handshake");
    const userAgent = client.initializeResponse?.userAgent;
    check(typeof userAgent === "string" && userAgent.length > 0, `initializeResponse.userAgent is ${JSON.stringify(userAgent)}`);
    return `userAgent ${userAgent.split(" ")[0]}`;
  },

  /** @param {ConformancePath} path @param {ServerSet} servers */
  async threadStart(path, servers) {
    const { client } = await servers.connect("threadStart");
    const thread = await client.startThread({ cwd: path.config.workspace, approvalPolicy: "never" });
    check(typeof thread.id === "string" && thread.id.length > 0, `thread id is ${JSON.stringify(thread.id)}`);
    return `thread ${thread.id}`;
  },

  /** @param {ConformancePath} path @param {ServerSet} servers */
  async approvalTurn(path, servers) {
    const asked = [];
    const { client } = await servers.connect("approvalTurn", {
      approvals: (request) => {
        asked.push(request.kind);
        return "accept";
      },
    });
    // "untrusted" plus the model's `require_escalated` is what makes codex ask the client.
    const thread = await client.startThread({ cwd: path.config.workspace, approvalPolicy: "untrusted" });
    const turn = thread.run("Run the command, then report.");
    const deltas = [];
    turn.text$.subscribe((delta) => deltas.push(delta));
    const done = await turn.completed;

    check(done.status === "completed", `turn ended ${done.status}: ${JSON.stringify(done.error)}`);
    check(asked.join() === "commandExecution", `approvals asked: [${asked.join()}], expected [commandExecution]`);
    const command = done.items.find((item) => item.type === "commandExecution");
    check(command !== undefined, `no commandExecution item among [${done.items.map((item) => item.type).join()}]`);
    check(command.status === "completed", `command item status ${command.status}`);
    check(String(command.aggregatedOutput).includes(APPROVAL_TURN.commandOutput), `command output ${JSON.stringify(command.aggregatedOutput)}`);
    check(deltas.length > 1, `text$ gave ${deltas.length} delta(s); a streamed reply gives several`);
    check(deltas.join("") === APPROVAL_TURN.finalText, `text$ joined is ${JSON.stringify(deltas.join(""))}`);
    check(done.finalText === APPROVAL_TURN.finalText, `finalText is ${JSON.stringify(done.finalText)}`);
    return `approved, output in item, ${deltas.length} deltas = final text`;
  },

  /** @param {ConformancePath} path @param {ServerSet} servers */
  async interrupt(path, servers) {
    const { client } = await servers.connect("interrupt");
    const thread = await client.startThread({ cwd: path.config.workspace, approvalPolicy: "never" });
    const turn = thread.run("Think forever."); // the model's stream hangs
    await turn.started;
    await waitForModelRequests(path.config, "interrupt", 1);
    await turn.interrupt();
    const done = await turn.completed;
    check(done.status === "interrupted", `turn ended ${done.status}, expected interrupted`);
    return "status interrupted";
  },

  /** @param {ConformancePath} path @param {ServerSet} servers */
  async killMidTurn(path, servers) {
    const { client, pid } = await servers.connect("killMidTurn");
    const thread = await client.startThread({ cwd: path.config.workspace, approvalPolicy: "never" });
    const turn = thread.run("Hang."); // the model's stream hangs: the turn is mid-way when the server dies
    await turn.started;
    await waitForModelRequests(path.config, "killMidTurn", 1);
    const outcome = turn.completed.then(
      (done) => ({ resolved: done }),
      (error) => ({ error }),
    );
    const killedAt = performance.now();
    path.killProcess(pid);
    const { resolved, error } = await withTimeout(outcome, 5_000, "turn.completed neither resolved nor rejected within 5 s of SIGKILL");
    const elapsedMs = performance.now() - killedAt;
    check(resolved === undefined, `turn.completed resolved (${resolved?.status}) instead of rejecting`);
    check(error?.code === "CONNECTION_CLOSED", `turn.completed rejected with code ${error?.code}: ${describeError(error)}`);
    check(elapsedMs < KILL_REPORT_BOUND_MS, `rejected ${elapsedMs.toFixed(0)} ms after SIGKILL (bound ${KILL_REPORT_BOUND_MS} ms)`);
    // The process may take a moment to be reaped by whoever spawned it (this script or the orchestrator).
    const gone = await eventually(() => !path.processExists(pid), 2_000);
    check(gone, `server pid ${pid} still exists 2 s after SIGKILL`);
    return `CONNECTION_CLOSED ${elapsedMs.toFixed(0)} ms after SIGKILL; pid gone`;
  },
};

/** The servers and clients one case opened; all closed (and killed if need be) when the case ends. */
class ServerSet {
  /** @param {ConformancePath} path */
  constructor(path) {
    this.path = path;
    /** @type {{ transport: import("@codex-rpc/core").Transport, pid: number, client?: CodexClient }[]} */
    this.servers = [];
  }

  /** A fresh server for `scope` and a client connected to it. */
  async connect(scope, options = {}) {
    const server = await this.path.startServer(scope);
    this.servers.push(server);
    server.client = await CodexClient.connect(server.transport, { clientInfo: { name: "codex-rpc-conformance", version: "0.0.0" }, ...options });
    return { client: server.client, pid: server.pid };
  }

  async dispose() {
    for (const server of this.servers.splice(0)) {
      await withTimeout((server.client ?? server.transport).close(), 6_000, "close timed out").catch(() => undefined);
      // A listening server outlives its client's connection, and a close may have timed out.
      if (this.path.processExists(server.pid)) {
        try {
          this.path.killProcess(server.pid);
        } catch {
          // gone in the meantime
        }
      }
    }
  }
}

function check(condition, message) {
  if (!condition) throw new Error(message);
}

function withTimeout(promise, ms, message) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function eventually(condition, ms) {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

function describeError(error) {
  if (!(error instanceof Error)) return String(error);
  const code = typeof error.code === "string" ? `${error.code}: ` : "";
  // The first line says what failed; a close error's stderr tail would swamp the table.
  return `${code}${error.message.split("\n")[0]}`;
}
