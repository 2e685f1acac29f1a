// Runs under the real Bun or Deno (started by runtime-fault-cases.ts), not under vitest: one fault
// against a server spawned through the runtime's adapter, printing one JSON line per step. The
// program must then end by itself: anything left unsettled keeps it alive (in Bun 1.4 a top-level
// await on a promise that never settles spins a core instead of exiting), which the test sees.
//
// Usage: <runtime …> fault-session.ts <deno|bun> '<FaultInput as JSON>'
import { CodexClient, ConnectionClosedError, type Transport, type TransportCloseInfo, type CodexTurn } from "@codex-rpc/core";
import { FaultClock, neverAnsweredApproval, unsettledAfter, watchStreams, type Outcome } from "./fault-checks.js";

export type FaultScenario = "killed-before-initialize" | "killed-mid-stream" | "killed-with-approval-pending" | "eof-with-request-pending";

export interface FaultInput {
  readonly scenario: FaultScenario;
  /** The server's environment (CODEX_HOME, HOME, PATH, …). */
  readonly env: Record<string, string>;
  readonly cwd: string;
  /** A stand-in for codex (the EOF scenario's). */
  readonly codexPath?: string;
}

/** What the script uses of an adapter package: both `@codex-rpc/deno` and `@codex-rpc/bun` have it. */
interface AdapterPackage {
  spawnCodexAppServer(options?: {
    codexPath?: string;
    env?: Record<string, string>;
    cwd?: string;
    eofGraceMs?: number;
    stdinEndTimeoutMs?: number;
    sigtermTimeoutMs?: number;
  }): Promise<Transport & { readonly pid: number }>;
}

const ADAPTERS = {
  deno: () => import("@codex-rpc/deno"),
  bun: () => import("@codex-rpc/bun"),
} satisfies Record<string, () => Promise<AdapterPackage>>;

/** Far above any fault's settling time: a promise still pending then is a hang. */
const SETTLE_BOUND_MS = 5_000;
const clientInfo = { name: "codex-rpc-runtime-faults", version: "0.0.0" };

function print(result: Record<string, unknown>): void {
  console.log(JSON.stringify(result));
}

function closeSummary(close: TransportCloseInfo) {
  return { reason: close.reason, exitCode: close.exitCode, signal: close.signal, stderrTail: close.stderrTail };
}

function outcomeSummary(outcome: Outcome) {
  if (outcome.settled === "resolved") return { settled: "resolved", afterMs: outcome.afterMs };
  const error = outcome.error;
  return {
    settled: "rejected",
    afterMs: outcome.afterMs,
    name: error instanceof Error ? error.name : typeof error,
    code: (error as { code?: unknown } | undefined)?.code,
    message: error instanceof Error ? error.message : String(error),
    isConnectionClosedError: error instanceof ConnectionClosedError,
    close: error instanceof ConnectionClosedError ? closeSummary(error.close) : undefined,
  };
}

/** Waits for every tracked outcome (a bounded wait: the names of those still pending are printed), then prints them. */
async function report(outcomes: Record<string, Promise<Outcome>>, streams?: { unended(): string[] }): Promise<void> {
  const unsettled = await unsettledAfter(outcomes, SETTLE_BOUND_MS);
  const settled: Record<string, unknown> = {};
  for (const [name, outcome] of Object.entries(outcomes)) if (!unsettled.includes(name)) settled[name] = outcomeSummary(await outcome);
  print({ event: "outcomes", outcomes: settled, unsettled, unendedStreams: streams?.unended() ?? [] });
}

function turnStreams(client: CodexClient, turn: CodexTurn) {
  return watchStreams({
    "client.state$": client.state$,
    "client.notifications()": client.notifications(),
    "client.diagnostics$": client.diagnostics$,
    "turn.events$": turn.events$,
    "turn.items$": turn.items$,
    "turn.text$": turn.text$,
  });
}

async function iterate(turn: CodexTurn): Promise<void> {
  for await (const _event of turn);
}

/** Kills the server, telling the test first (so it can watch this program from then on). */
function kill(clock: FaultClock, pid: number): void {
  print({ event: "fault", runtimePid: process.pid, serverPid: pid });
  clock.inject(() => process.kill(pid, "SIGKILL"));
}

async function main(runtime: string, input: FaultInput): Promise<void> {
  if (!(runtime in ADAPTERS)) throw new Error(`no adapter for ${runtime}; pass one of ${Object.keys(ADAPTERS).join(", ")}`);
  const { spawnCodexAppServer }: AdapterPackage = await ADAPTERS[runtime as keyof typeof ADAPTERS]();
  const clock = new FaultClock();

  async function killedBeforeInitialize(): Promise<void> {
    const transport = await spawnCodexAppServer({ env: input.env, cwd: input.cwd });
    kill(clock, transport.pid);
    await report({ connect: clock.track(CodexClient.connect(transport, { clientInfo })), closed: clock.track(transport.closed) });
  }

  async function killedMidStream(): Promise<void> {
    const transport = await spawnCodexAppServer({ env: input.env, cwd: input.cwd });
    const client = await CodexClient.connect(transport, { clientInfo });
    const thread = await client.startThread({ cwd: input.cwd, approvalPolicy: "never" });
    const turn = thread.run("Say something, then wait.");
    const streams = turnStreams(client, turn);
    const completed = clock.track(turn.completed);
    const iterated = clock.track(iterate(turn));
    await new Promise<string>((resolve) => turn.text$.subscribe(resolve));
    kill(clock, transport.pid);
    await report({ completed, iterated, closed: clock.track(client.closed) }, streams);
    await client.close(); // after the death: at once
  }

  async function killedWithApprovalPending(): Promise<void> {
    const transport = await spawnCodexAppServer({ env: input.env, cwd: input.cwd });
    const approval = neverAnsweredApproval(clock);
    const client = await CodexClient.connect(transport, { clientInfo, handlers: { "item/commandExecution/requestApproval": approval.handler } });
    const thread = await client.startThread({ cwd: input.cwd, approvalPolicy: "untrusted" });
    const turn = thread.run("Touch the file.");
    const streams = turnStreams(client, turn);
    const completed = clock.track(turn.completed);
    await approval.arrived;
    kill(clock, transport.pid);
    await report({ completed, signalFired: approval.signalFired(), closed: clock.track(client.closed) }, streams);
    await client.close();
  }

  async function eofWithRequestPending(): Promise<void> {
    // Short waits: the stand-in closes its stdout but stays alive until the transport ends it.
    const transport = await spawnCodexAppServer({
      codexPath: input.codexPath,
      env: input.env,
      cwd: input.cwd,
      eofGraceMs: 200,
      stdinEndTimeoutMs: 200,
      sigtermTimeoutMs: 200,
    });
    const client = await CodexClient.connect(transport, { clientInfo });
    print({ event: "fault", runtimePid: process.pid, serverPid: transport.pid });
    // The stand-in takes this request and closes its stdout: the EOF is the fault.
    clock.inject(() => undefined);
    const pending = clock.track(client.request("thread/list", {}));
    await report({ pending, closed: clock.track(client.closed), transportClosed: clock.track(transport.closed) });
    await client.close();
  }

  const scenarios: Record<FaultScenario, () => Promise<void>> = {
    "killed-before-initialize": killedBeforeInitialize,
    "killed-mid-stream": killedMidStream,
    "killed-with-approval-pending": killedWithApprovalPending,
    "eof-with-request-pending": eofWithRequestPending,
  };
  await scenarios[input.scenario]();
}

// Reported, not fatal: the test checks the list is empty.
const unhandled: string[] = [];
process.on("unhandledRejection", (reason: unknown) => void unhandled.push(String(reason)));

// Deno and Bun both give the arguments after the script as process.argv[2…].
const [runtime = "", inputJson = "{}"] = process.argv.slice(2);
try {
  await main(runtime, JSON.parse(inputJson) as FaultInput);
} catch (error) {
  print({ event: "failed", message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
}
// A turn's or a request's rejection reported late would land after this line; give it a tick.
await new Promise((resolve) => setTimeout(resolve, 0));
print({ event: "done", unhandled });
