// Runs under the real Deno or Bun (started by the adapter tests through real-codex-adapter-cases.ts),
// not under vitest: one scenario against the real codex app-server through the built adapter for
// that runtime, printing one JSON line per result. It ends by itself: a scenario that leaves
// anything unsettled shows up as a timeout (in Bun 1.4 a top-level await on a promise that never
// settles spins a core instead of exiting).
//
// Usage: <runtime …> codex-session.ts <deno|bun> '<ScenarioInput as JSON>'
import { CodexClient, ConnectionClosedError, type CodexClientOptions, type Transport, type TransportCloseInfo } from "@codex-rpc/core";

export type SessionScenario = "turn" | "not-found" | "exit-at-start" | "killed-mid-turn" | "cancellation";

export interface ScenarioInput {
  readonly scenario: SessionScenario;
  /** The server's environment (CODEX_HOME, HOME, PATH, …). */
  readonly env?: Record<string, string>;
  readonly cwd?: string;
  readonly prompt?: string;
}

/** What the script uses of an adapter package: both `@codex-rpc/deno` and `@codex-rpc/bun` have it. */
interface SpawnOptions {
  codexPath?: string;
  env?: Record<string, string> | undefined;
  cwd?: string | undefined;
  signal?: AbortSignal;
}

interface AdapterPackage {
  spawnCodexAppServer(options?: SpawnOptions): Promise<Transport & AsyncDisposable & { readonly pid: number }>;
  connectCodex(options?: SpawnOptions & CodexClientOptions): Promise<CodexClient>;
}

/** Each adapter by the runtime it is for, imported only when asked for (the other one may not run here). */
const ADAPTERS = {
  deno: () => import("@codex-rpc/deno"),
  bun: () => import("@codex-rpc/bun"),
} satisfies Record<string, () => Promise<AdapterPackage>>;

function print(result: Record<string, unknown>): void {
  console.log(JSON.stringify(result));
}

function closeSummary(close: TransportCloseInfo) {
  return { reason: close.reason, exitCode: close.exitCode, signal: close.signal, stderrTail: close.stderrTail };
}

function errorSummary(error: unknown) {
  if (!(error instanceof Error)) return { message: String(error) };
  return {
    name: error.name,
    code: (error as { code?: unknown }).code,
    message: error.message,
    isConnectionClosedError: error instanceof ConnectionClosedError,
    close: error instanceof ConnectionClosedError ? closeSummary(error.close) : undefined,
  };
}

async function main(runtime: string, input: ScenarioInput): Promise<void> {
  if (!(runtime in ADAPTERS)) throw new Error(`no adapter for ${runtime}; pass one of ${Object.keys(ADAPTERS).join(", ")}`);
  const { spawnCodexAppServer, connectCodex }: AdapterPackage = await ADAPTERS[runtime as keyof typeof ADAPTERS]();
  const clientInfo = { name: `codex-rpc-${runtime}-tests`, version: "0.0.0" };

  async function turn(): Promise<void> {
    const transport = await spawnCodexAppServer({ env: input.env, cwd: input.cwd });
    const client = await CodexClient.connect(transport, { clientInfo });
    print({ event: "initialized", pid: transport.pid, initializeResponse: client.initializeResponse });
    const thread = await client.startThread({ cwd: input.cwd, approvalPolicy: "never" });
    const running = thread.run(input.prompt ?? "Hello.");
    const deltas: string[] = [];
    running.text$.subscribe((delta) => deltas.push(delta));
    const done = await running.completed;
    print({ event: "turn-completed", status: done.status, finalText: done.finalText, deltas });
    await client.close();
    print({ event: "closed", close: closeSummary(await transport.closed) });
  }

  async function notFound(): Promise<void> {
    // Searched: CODEX_BIN, node_modules from this process's cwd upwards, PATH (all set up empty by the test).
    await spawnCodexAppServer().then(
      () => print({ event: "unexpectedly-started" }),
      (error: unknown) => print({ event: "search-failed", error: errorSummary(error) }),
    );
    await spawnCodexAppServer({ codexPath: "/nonexistent/bin/codex" }).then(
      () => print({ event: "unexpectedly-started" }),
      (error: unknown) => print({ event: "explicit-failed", error: errorSummary(error) }),
    );
  }

  async function exitAtStart(): Promise<void> {
    const transport = await spawnCodexAppServer({ env: input.env, cwd: input.cwd });
    print({ event: "spawned", pid: transport.pid });
    await CodexClient.connect(transport, { clientInfo }).then(
      async (client) => {
        print({ event: "unexpectedly-connected" });
        await client.close();
      },
      (error: unknown) => print({ event: "connect-failed", error: errorSummary(error) }),
    );
    print({ event: "closed", close: closeSummary(await transport.closed) });
  }

  async function killedMidTurn(): Promise<void> {
    const transport = await spawnCodexAppServer({ env: input.env, cwd: input.cwd });
    const client = await CodexClient.connect(transport, { clientInfo });
    const thread = await client.startThread({ cwd: input.cwd, approvalPolicy: "never" });
    const running = thread.run(input.prompt ?? "Hang.");
    await running.started;
    // The test kills the server now (once the model request arrived at its mock provider).
    print({ event: "turn-started", pid: transport.pid });
    await running.completed.then(
      (done) => print({ event: "unexpectedly-completed", status: done.status }),
      (error: unknown) => print({ event: "turn-failed", error: errorSummary(error) }),
    );
    await client.close(); // after the death: resolves at once
    print({ event: "closed", close: closeSummary(await transport.closed) });
  }

  /** Every way to stop a start, a handshake, a transport and a client, then a turn through connectCodex. */
  async function cancellation(): Promise<void> {
    const server = { env: input.env, cwd: input.cwd };
    const notStarted = await spawnCodexAppServer({ ...server, signal: AbortSignal.abort() }).catch((error: unknown) => error);
    print({ event: "spawn-aborted", error: errorSummary(notStarted) });

    const transport = await spawnCodexAppServer(server);
    const handshake = new AbortController();
    const connecting = CodexClient.connect(transport, { clientInfo, signal: handshake.signal }).catch((error: unknown) => error);
    handshake.abort(); // initialize is on its way; its reply has not come
    print({ event: "connect-aborted", pid: transport.pid, error: errorSummary(await connecting), close: closeSummary(await transport.closed) });

    const connectCodexAborted = new AbortController();
    const connectingCodex = connectCodex({ ...server, clientInfo, signal: connectCodexAborted.signal }).catch((error: unknown) => error);
    setTimeout(() => connectCodexAborted.abort(), 5);
    print({ event: "connect-codex-aborted", error: errorSummary(await connectingCodex) });

    let transportPid: number;
    {
      await using disposed = await spawnCodexAppServer(server);
      transportPid = disposed.pid;
    }
    print({ event: "transport-disposed", pid: transportPid });

    {
      await using client = await connectCodex({ ...server, clientInfo });
      const thread = await client.startThread({ cwd: input.cwd, approvalPolicy: "never" });
      const done = await thread.run(input.prompt ?? "Hello.").completed;
      print({ event: "turn-completed", status: done.status, finalText: done.finalText, state: client.state });
    }
    print({ event: "client-disposed" });
  }

  const scenarios: Record<SessionScenario, () => Promise<void>> = {
    turn,
    "not-found": notFound,
    "exit-at-start": exitAtStart,
    "killed-mid-turn": killedMidTurn,
    cancellation,
  };
  await scenarios[input.scenario]();
}

// Deno and Bun both give the arguments after the script as process.argv[2…].
const [runtime = "", inputJson = "{}"] = process.argv.slice(2);
try {
  await main(runtime, JSON.parse(inputJson) as ScenarioInput);
  print({ event: "done" });
} catch (error) {
  print({ event: "failed", error: errorSummary(error) });
}
