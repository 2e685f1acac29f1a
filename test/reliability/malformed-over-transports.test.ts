// Issue 9, end to end: malformed messages and failing server-request handlers, each played in the
// middle of a turn by a scripted app-server (test/support/scripted-app-server.mjs) to a user's
// program in its own Node process (support/malformed-transport-client.mjs), through the real stdio
// transport and, separately, the WebSocket one. The program catches nothing, so an error the
// library lets escape (into RxJS's reportUnhandledError or an unhandled rejection) kills it. Each
// run must exit 0 with the turn completed, the valid deltas in order, exactly one diagnostic for the
// bad message, and, for a failing handler, exactly one -32603 reply. Every case runs twice: with the
// turn's messages after the turn/start reply (routed live) and before it (held until the turn id is
// known, then replayed: a different code path, where an old client swallowed the error and hung).
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEFAULT_THREAD_ID as THREAD,
  DEFAULT_TURN_ID as TURN,
  initializeResult,
  scriptedTurn,
  threadStartResult,
  turnStartResult,
} from "../support/scripted-app-server.mjs";
import { recordReliability } from "./support/reliability-report.js";

const REPOSITORY_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SERVER = fileURLToPath(new URL("../support/scripted-app-server.mjs", import.meta.url));
const CLIENT = fileURLToPath(new URL("./support/malformed-transport-client.mjs", import.meta.url));
const AREA = "malformed messages: real stdio and WebSocket transports";
/** A run that outlives this hangs (a turn that never settles): killed and reported. A good run takes < 1 s. */
const RUN_TIMEOUT_MS = 8_000;
/** Runs at once: each is two or three Node processes, on two cores. */
const PARALLEL_RUNS = 4;
const INTERNAL_ERROR = -32603;

const ITEM = "msg_scripted";
const NOW_MS = 1_700_000_000_000;
const DEPTH = 100_000;

type Step =
  | { line: string }
  | { send: object }
  | { request: { method: string; params: object }; waitMs?: number }
  | { reportReplies: string }
  | { sleepMs: number };
type Transport = "stdio" | "websocket";
/** When the turn's messages come: after the turn/start reply, or all before it. */
type Timing = "after" | "before";
const TIMINGS: Readonly<Record<Timing, string>> = { after: "after the turn/start reply", before: "before the turn/start reply" };

interface CrashCase {
  readonly name: string;
  /** The steps in place of the bad line, between the first delta and the rest. */
  readonly bad: readonly Step[];
  /** The one diagnostic expected; none for a message the client can use as it is. */
  readonly kind: "malformed-message" | "unclassifiable-message" | "handler-error" | "none";
  /** Which failing handler the client registers for the approval request (see the client program). */
  readonly handler?: "throws-null-prototype" | "rejects-unprintable";
}

const agentMessage = (text: string) => ({
  type: "agentMessage",
  id: ITEM,
  text,
  delivery: null,
  memoryCitation: null,
  moderation: null,
  phase: null,
  questions: null,
  startedAtMs: NOW_MS,
  completedAtMs: text === "" ? null : NOW_MS,
});
const delta = (text: string) => ({ method: "item/agentMessage/delta", params: { threadId: THREAD, turnId: TURN, itemId: ITEM, delta: text } });
const { items: _items, ...turnWithoutItems } = scriptedTurn(TURN, "failed");

/** The valid messages of the turn, also checked against the generated validators below. */
const VALID = {
  itemStarted: { method: "item/started", params: { threadId: THREAD, turnId: TURN, startedAtMs: NOW_MS, item: agentMessage("") } },
  deltas: [delta("Hel"), delta("lo"), delta(" world")],
  itemCompleted: {
    method: "item/completed",
    params: { threadId: THREAD, turnId: TURN, completedAtMs: NOW_MS, contentTokenCount: null, item: agentMessage("Hello world") },
  },
  turnCompleted: { method: "turn/completed", params: { threadId: THREAD, turn: scriptedTurn(TURN, "completed") } },
  approvalRequest: {
    method: "item/commandExecution/requestApproval",
    params: {
      threadId: THREAD,
      turnId: TURN,
      itemId: "cmd_scripted",
      startedAtMs: NOW_MS,
      kind: "command",
      command: "true",
      cwd: "/tmp",
      reason: null,
      approvalId: null,
      commandActions: null,
      environmentId: null,
      networkApprovalContext: null,
      proposedExecpolicyAmendment: null,
      proposedNetworkPolicyAmendments: null,
    },
  },
};

const askApproval: readonly Step[] = [{ request: VALID.approvalRequest, waitMs: 3000 }];

// Each notification is routable to the running turn (threadId, and turnId where the client needs
// one to pick the turn), so it reaches the code that reads the missing field. A bad turn/completed
// says "failed", so the status tells whether the client took it as the end.
const CASES: readonly CrashCase[] = [
  { name: "serverRequest/resolved without params", kind: "malformed-message", bad: [{ line: '{"method":"serverRequest/resolved"}' }] },
  {
    name: "thread/status/changed without status",
    kind: "malformed-message",
    bad: [{ send: { method: "thread/status/changed", params: { threadId: THREAD } } }],
  },
  {
    name: "item/started without item",
    kind: "malformed-message",
    bad: [{ send: { method: "item/started", params: { threadId: THREAD, turnId: TURN, startedAtMs: NOW_MS } } }],
  },
  {
    name: "item/completed with item: null",
    kind: "malformed-message",
    bad: [{ send: { method: "item/completed", params: { threadId: THREAD, turnId: TURN, completedAtMs: NOW_MS, contentTokenCount: null, item: null } } }],
  },
  { name: "turn/completed without turn", kind: "malformed-message", bad: [{ send: { method: "turn/completed", params: { threadId: THREAD, turnId: TURN } } }] },
  {
    // The client does not need `items` (the stream has them): it ends the turn here, as
    // hostile-server.test.ts expects, so the deltas after it are not part of the turn.
    name: "turn/completed without turn.items",
    kind: "none",
    bad: [{ send: { method: "turn/completed", params: { threadId: THREAD, turn: turnWithoutItems } } }],
  },
  {
    // No method, id, result or error: only the deep `x`. Parses fine; JSON.stringify of it overflows the stack.
    name: `a ${DEPTH.toLocaleString("en")}-deep message no rule classifies`,
    kind: "unclassifiable-message",
    bad: [{ line: `{"x":${'{"a":'.repeat(DEPTH)}1${"}".repeat(DEPTH)}}` }],
  },
  { name: "a handler throws Object.create(null)", kind: "handler-error", handler: "throws-null-prototype", bad: askApproval },
  { name: "a handler rejects with an object whose toString throws", kind: "handler-error", handler: "rejects-unprintable", bad: askApproval },
];

function scriptSteps(crash: CrashCase, timing: Timing): Step[] {
  const [first, ...rest] = VALID.deltas.map((send) => ({ send }));
  return [
    // Lets the client take the turn id from the reply first (a correct client passes either way).
    ...(timing === "after" ? [{ sleepMs: 100 }] : []),
    { send: VALID.itemStarted },
    first!,
    ...crash.bad,
    ...rest,
    { reportReplies: "scripted/replies" },
    { send: VALID.itemCompleted },
    { send: VALID.turnCompleted },
  ];
}

/** What the client program prints when it reaches its end. */
interface ClientOutput {
  readonly completed: boolean;
  readonly status: string;
  readonly finalText: string;
  readonly deltas: string[];
  readonly diagnostics: { kind: string; message: string }[];
  readonly replies: { id: unknown; result?: unknown; error?: { code: number; message: string } }[];
}

interface Run {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly stderr: string;
  readonly output: ClientOutput | undefined;
  /** What the scripted server recorded: the replies it got, even if the client died. */
  readonly server: { received: string[]; replies: ClientOutput["replies"] } | undefined;
  readonly elapsedMs: number;
}

const { NODE_OPTIONS: _nodeOptions, ...childEnv } = process.env;
const children = new Set<ChildProcess>();
const dirs: string[] = [];

function startNode(args: readonly string[]): ChildProcess {
  const child = spawn(process.execPath, args, { env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

/** Runs the client program to its end (or the timeout) and collects its output. */
function runClient(args: readonly string[]): Promise<Omit<Run, "server">> {
  const startedAt = performance.now();
  const child = startNode([CLIENT, ...args]);
  let stdout = "";
  let stderr = "";
  let timedOut = false;
  child.stdout!.setEncoding("utf8").on("data", (text: string) => (stdout += text));
  child.stderr!.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, RUN_TIMEOUT_MS);
  return new Promise((resolve) => {
    child.once("close", (exitCode, signal) => {
      clearTimeout(timer);
      const last = stdout.trim().split("\n").pop() ?? "";
      resolve({
        exitCode,
        signal,
        timedOut,
        stderr: stderr.slice(-4000),
        output: last.startsWith("{") ? (JSON.parse(last) as ClientOutput) : undefined,
        elapsedMs: Math.round(performance.now() - startedAt),
      });
    });
  });
}

/** Starts the scripted server on a free loopback port; resolves with its URL. */
function startWebSocketServer(scriptPath: string): Promise<{ url: string; server: ChildProcess }> {
  const server = startNode([SERVER, "--listen", "ws://127.0.0.1:0", "--script", scriptPath]);
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    server.stderr!.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    server.stdout!.setEncoding("utf8").on("data", (text: string) => {
      stdout += text;
      const line = stdout.split("\n")[0]!;
      if (stdout.includes("\n")) resolve({ url: (JSON.parse(line) as { listening: string }).listening, server });
    });
    server.once("exit", (code) => reject(new Error(`scripted WebSocket server exited ${code} before listening: ${stderr}`)));
  });
}

async function runCase(crash: CrashCase, transport: Transport, timing: Timing): Promise<Run> {
  const dir = await mkdtemp(join(tmpdir(), "codex-rpc-malformed-"));
  dirs.push(dir);
  const resultsFile = join(dir, "server-results.json");
  const scriptPath = join(dir, "script.json");
  await writeFile(scriptPath, JSON.stringify({ resultsFile, playBeforeTurnStartReply: timing === "before", steps: scriptSteps(crash, timing) }));
  const handler = crash.handler ?? "none";
  let run: Omit<Run, "server">;
  if (transport === "stdio") {
    run = await runClient(["stdio", scriptPath, handler]);
  } else {
    const { url, server } = await startWebSocketServer(scriptPath);
    run = await runClient(["ws", url, handler]);
    // It exits once its one connection closes (also when the client died): wait for that, briefly.
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once("exit", resolve));
      const timer = setTimeout(() => server.kill("SIGKILL"), 2000);
      await exited;
      clearTimeout(timer);
    }
  }
  const server = await readFile(resultsFile, "utf8").then(
    (text) => JSON.parse(text) as Run["server"],
    () => undefined,
  );
  return { ...run, server };
}

/** A small limiter: at most `n` runs at once. */
function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: (() => void)[] = [];
  return async (task) => {
    if (active >= n) await new Promise<void>((resolve) => queue.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}

/** The first error line of a dead child's stderr, for the failure message. */
function describeRun(run: Run): string {
  const error = run.stderr.split("\n").find((line) => /^\s*(\w*Error|Uncaught|\[)/.test(line));
  return `exit ${run.exitCode}${run.signal ? ` (${run.signal})` : ""}${run.timedOut ? ", timed out" : ""} after ${run.elapsedMs} ms${error ? `: ${error.trim()}` : ""}\n${run.stderr}`;
}

const runs = new Map<string, Promise<Run>>();

beforeAll(() => {
  // All runs start now, a few at a time; each test awaits its own.
  const limit = limiter(PARALLEL_RUNS);
  for (const transport of ["stdio", "websocket"] as const) {
    for (const timing of ["after", "before"] as const) {
      for (const crash of CASES)
        runs.set(
          `${transport} ${timing}: ${crash.name}`,
          limit(() => runCase(crash, transport, timing)),
        );
    }
  }
});

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/**
 * Checks values against the generated validators in a plain Node process: transforming the 1.7 MB
 * validator module inside vitest takes seconds; Node loads it in a tenth of one.
 */
function schemaMismatches(checks: readonly { table: string; method: string; value: unknown; valid: boolean }[]): unknown[] {
  const program = `
    import { loadValidators } from "@codex-rpc/protocol/validators";
    const validators = await loadValidators();
    let input = "";
    for await (const chunk of process.stdin) input += chunk;
    const wrong = [];
    for (const { table, method, value, valid } of JSON.parse(input)) {
      const [group, part] = table.split(".");
      const validate = validators[group][method][part];
      if (validate(value) !== valid) wrong.push({ table, method, expectedValid: valid, errors: validate.errors ?? null });
    }
    console.log(JSON.stringify(wrong));`;
  const output = execFileSync(process.execPath, ["--input-type=module", "-e", program], {
    cwd: REPOSITORY_ROOT,
    env: childEnv,
    input: JSON.stringify(checks),
    encoding: "utf8",
  });
  return JSON.parse(output) as unknown[];
}

it("the scripted server's replies and the turn's valid messages match the generated schemas; the bad ones do not", () => {
  const result = (method: string, value: unknown) => ({ table: "clientRequestValidators.result", method, value, valid: true });
  const notification = (message: { method: string; params?: unknown }, valid: boolean) => ({
    table: "serverNotificationValidators.params",
    method: message.method,
    value: message.params,
    valid,
  });
  const malformed = CASES.filter((crash) => crash.kind === "malformed-message" || crash.kind === "none").map((crash) => {
    const step = crash.bad[0]!;
    return notification(("line" in step ? JSON.parse(step.line) : (step as { send: object }).send) as { method: string; params?: unknown }, false);
  });
  const mismatches = schemaMismatches([
    result("initialize", initializeResult()),
    result("thread/start", threadStartResult()),
    result("turn/start", turnStartResult()),
    ...[VALID.itemStarted, ...VALID.deltas, VALID.itemCompleted, VALID.turnCompleted].map((message) => notification(message, true)),
    { table: "serverRequestValidators.params", method: VALID.approvalRequest.method, value: VALID.approvalRequest.params, valid: true },
    ...malformed,
  ]);
  expect(mismatches).toEqual([]);
});

for (const transport of ["stdio", "websocket"] as const) {
  for (const timing of ["after", "before"] as const) {
    describe(`through the real ${transport} transport, messages ${TIMINGS[timing]}`, () => {
      for (const crash of CASES) {
        const outcome = crash.kind === "none" ? "the turn ends there, no diagnostic" : `the turn completes, one ${crash.kind} diagnostic`;
        it(`${crash.name}: the program runs to its end, ${outcome}`, async () => {
          const run = await runs.get(`${transport} ${timing}: ${crash.name}`)!;
          const why = describeRun(run);
          expect(run.exitCode, why).toBe(0);
          const output = run.output!;
          const seen = JSON.stringify(output);
          expect(output.completed, seen).toBe(true);
          if (crash.kind === "none") {
            expect({ status: output.status, deltas: output.deltas, finalText: output.finalText }, seen).toEqual({
              status: "failed",
              deltas: ["Hel"],
              finalText: "Hel",
            });
          } else {
            expect(output.status, seen).toBe("completed");
            expect(output.deltas, seen).toEqual(["Hel", "lo", " world"]);
            expect(output.finalText, seen).toBe("Hello world");
          }
          const kinds = output.diagnostics.map((diagnostic) => diagnostic.kind);
          expect(kinds, JSON.stringify(output.diagnostics)).toEqual(crash.kind === "none" ? [] : [crash.kind]);
          if (crash.handler) {
            // Answered exactly once, with an internal error, as both ends saw it.
            for (const replies of [output.replies, run.server?.replies ?? []]) {
              expect(replies).toHaveLength(1);
              expect(replies[0]!.error?.code, JSON.stringify(replies)).toBe(INTERNAL_ERROR);
              expect(replies[0]!.result).toBeUndefined();
            }
          } else {
            expect(output.replies).toEqual([]);
          }
          recordReliability({ area: AREA, cases: 1, faults: 1 });
        });
      }
    });
  }
}
