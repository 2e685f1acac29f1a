// The conformance cases, runtime-agnostic: plain ESM that imports only @codex-rpc/core. A path
// entry (paths/*.mjs) supplies how to start and reach a server and how to kill a process; this
// runs every case against it and prints one JSON line per case: {case, pass, ms, detail}.
import { CodexClient } from "@codex-rpc/core";
import { APPROVAL_TURN, CONFORMANCE_CASES, KILL_REPORT_BOUND_MS, NEWER_METHOD } from "./case-list.mjs";
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

/**
 * @param {ConformancePath} path
 * @param {Record<string, (path: any, servers: any) => Promise<string | undefined>>} cases each case by id (default: core's, below)
 * @param {(path: any, protocol: unknown) => ServerSet} makeServers how a case connects (default: CodexClient.connect over `startServer`)
 */
export async function runConformanceCases(path, cases = CASES, makeServers = (p, protocol) => new ServerSet(p, protocol)) {
  // The protocol every client is typed and validated by: a module generated for another codex
  // version when the orchestrator names one, else the client's default (@codex-rpc/protocol).
  const protocol = path.config.protocolModuleUrl ? (await import(path.config.protocolModuleUrl)).protocol : undefined;
  for (const { id } of CONFORMANCE_CASES) {
    const started = performance.now();
    const servers = makeServers(path, protocol);
    let result;
    try {
      const detail = await withTimeout(cases[id](path, servers), CASE_TIMEOUT_MS, `case timed out after ${CASE_TIMEOUT_MS} ms`);
      servers.checkDiagnostics();
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
export const CASES = {
  /** @param {ConformancePath} _path @param {ServerSet} servers */
  async handshake(_path, servers) {
    const { client } = await servers.connect("handshake");
    const userAgent = client.initializeResponse?.userAgent;
    check(typeof userAgent === "string" && userAgent.length > 0, `initializeResponse.userAgent is ${JSON.stringify(userAgent)}`);
    return `userAgent ${userAgent.split(" ")[0]}`;
  },

  /**
   * The versions the client reports, the version-mismatch diagnostic (exactly one when they differ:
   * ServerSet.connect checks every connection), `strictVersion`, and a method only newer servers have.
   * @param {ConformancePath} path @param {ServerSet} servers
   */
  async versions(path, servers) {
    const expected = path.config.versions;
    const mismatch = expected.server !== expected.protocol;
    const { client } = await servers.connect("versions");
    check(client.serverVersion === expected.server, `serverVersion is ${client.serverVersion}, expected ${expected.server}`);
    check(client.protocolVersion === expected.protocol, `protocolVersion is ${client.protocolVersion}, expected ${expected.protocol}`);

    const strict = await servers.connect("versions", { strictVersion: true }).then(
      () => undefined,
      (error) => error,
    );
    if (mismatch)
      check(
        strict?.code === "PROTOCOL_VERSION_MISMATCH",
        `strictVersion connect: ${strict ? describeError(strict) : "connected"}, expected PROTOCOL_VERSION_MISMATCH`,
      );
    else check(strict === undefined, `strictVersion connect failed: ${describeError(strict)}`);

    const { method, params, since } = NEWER_METHOD;
    // Typed (and its result validated) when the client's protocol has the method, untyped when not.
    const typed = compareVersions(expected.protocol, since) >= 0;
    const call = typed ? client.request(method, params) : client.requestUntyped(method, params);
    const outcome = await call.then(
      (result) => ({ result }),
      (error) => ({ error }),
    );
    let called;
    if (compareVersions(expected.server, since) >= 0) {
      check(outcome.error === undefined, `${method} failed: ${describeError(outcome.error)}`);
      called = `${method} ok`;
    } else {
      const { error } = outcome;
      check(
        error?.code === "METHOD_NOT_SUPPORTED",
        `${method} on codex ${expected.server}: ${error ? describeError(error) : "resolved"}, expected METHOD_NOT_SUPPORTED`,
      );
      for (const version of new Set([expected.server, expected.protocol])) {
        check(error.message.includes(`codex ${version}`), `the METHOD_NOT_SUPPORTED message does not name codex ${version}: ${error.message}`);
      }
      called = `${method} METHOD_NOT_SUPPORTED`;
    }
    const mismatchNote = mismatch ? "1 version-mismatch, strict rejects" : "no version-mismatch, strict connects";
    return `server ${client.serverVersion}, protocol ${client.protocolVersion}: ${mismatchNote}; ${called}`;
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

/**
 * The servers and clients one case opened; all closed (and killed if need be) when the case ends.
 * Every client validates by its protocol and keeps its diagnostics for checkDiagnostics().
 */
export class ServerSet {
  /** @param {ConformancePath} path @param {import("@codex-rpc/core").CodexProtocol | undefined} protocol */
  constructor(path, protocol) {
    this.path = path;
    this.protocol = protocol;
    /** @type {{ transport: import("@codex-rpc/core").Transport, pid: number, client?: CodexClient, diagnostics?: { kind: string, message: string }[] }[]} */
    this.servers = [];
  }

  /** A fresh server for `scope` and a client connected to it. */
  async connect(scope, options = {}) {
    const server = await this.path.startServer(scope);
    this.servers.push(server);
    server.client = await CodexClient.connect(server.transport, {
      clientInfo: { name: "codex-rpc-conformance", version: "0.0.0" },
      validate: true,
      ...(this.protocol ? { protocol: this.protocol } : {}),
      ...options,
    });
    server.diagnostics = [];
    server.client.diagnostics$.subscribe((diagnostic) => server.diagnostics.push(diagnostic)); // replays the handshake's
    return { client: server.client, pid: server.pid };
  }

  /**
   * Every connection saw exactly one version-mismatch diagnostic if the server's codex version is
   * not the protocol's (none if it is), and no message failed validation by the protocol.
   */
  checkDiagnostics() {
    const { server, protocol } = this.path.config.versions;
    const expectedMismatches = server === protocol ? 0 : 1;
    for (const { diagnostics } of this.servers) {
      if (!diagnostics) continue; // never connected
      const count = (kind) => diagnostics.filter((diagnostic) => diagnostic.kind === kind).length;
      check(
        count("version-mismatch") === expectedMismatches,
        `${count("version-mismatch")} version-mismatch diagnostic(s), expected ${expectedMismatches} (server ${server}, protocol ${protocol})`,
      );
      const invalid = diagnostics.filter((diagnostic) => diagnostic.kind === "validation-failed");
      check(invalid.length === 0, `${invalid.length} message(s) failed validation by the ${protocol} protocol: ${invalid[0]?.message.slice(0, 300)}`);
    }
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

/** Orders x.y.z versions numerically. */
export function compareVersions(a, b) {
  const [x, y] = [a, b].map((version) => version.split(".").map(Number));
  for (let index = 0; index < 3; index++) if (x[index] !== y[index]) return x[index] - y[index];
  return 0;
}

export function check(condition, message) {
  if (!condition) throw new Error(message);
}

export function withTimeout(promise, ms, message) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function eventually(condition, ms) {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

export function describeError(error) {
  if (!(error instanceof Error)) return String(error);
  const code = typeof error.code === "string" ? `${error.code}: ` : "";
  // The first line says what failed; a close error's stderr tail would swamp the table.
  return `${code}${error.message.split("\n")[0]}`;
}
