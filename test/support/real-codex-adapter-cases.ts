// The real-runtime cases every process adapter for another runtime (@codex-rpc/deno, @codex-rpc/bun)
// passes: the pinned runtime runs codex-session.ts, which drives the real codex app-server through
// the built adapter, offline; the mock model provider and the CODEX_HOME live in this (vitest)
// process, which checks the JSON lines the script prints. Each package's own test file declares
// them for its runtime, with the runtime's command line.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { MockResponsesProvider, createCodexHome, reply, type CodexHome, type ScriptedReply } from "@codex-rpc/testing";
import type { ScenarioInput, SessionScenario } from "./codex-session.js";
import { isProcessRunning, runUnderRuntime, type RunUnderRuntimeOptions, type RuntimeRun } from "./runtimes.js";

const SESSION_SCRIPT = fileURLToPath(new URL("./codex-session.ts", import.meta.url));
/** The scripts run from here: the repository's package.json and node_modules resolve `@codex-rpc/*` for them. */
export const REPOSITORY_ROOT = fileURLToPath(new URL("../../", import.meta.url));
/**
 * Far above a normal run (about a second); reaching it means something was left unsettled (on
 * Bun 1.4 that also spins a core).
 */
const SCRIPT_TIMEOUT_MS = 30_000;

export interface RealCodexAdapterSuite {
  /** The runtime, which also names the adapter package the script uses (`@codex-rpc/<runtime>`). */
  readonly runtime: "deno" | "bun";
  /** The runtime's name in prose ("Deno"). */
  readonly runtimeName: string;
  /** The runtime's arguments that run `script` (the script's path and its arguments) for a scenario. */
  readonly runtimeArguments: (script: readonly string[], scenario: SessionScenario) => string[];
}

/** Declares the real-codex cases for one runtime's adapter. */
export function describeAdapterAgainstRealCodex(suite: RealCodexAdapterSuite): void {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function temporaryDirectory(purpose: string): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), `codex-rpc-${suite.runtime}-${purpose}-`));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    return dir;
  }

  async function offlineCodex(
    script: readonly ScriptedReply[],
  ): Promise<{ provider: MockResponsesProvider; home: CodexHome; workspace: string; env: Record<string, string> }> {
    const provider = await MockResponsesProvider.start({ script });
    cleanups.push(() => provider.close());
    const home = await createCodexHome({ provider });
    cleanups.push(() => home.cleanup());
    const workspace = await temporaryDirectory("workspace");
    return { provider, home, workspace, env: { PATH: process.env.PATH ?? "", ...home.env } };
  }

  function runScenario(input: ScenarioInput, options: Partial<RunUnderRuntimeOptions> = {}): Promise<RuntimeRun> {
    const script = [SESSION_SCRIPT, suite.runtime, JSON.stringify(input)];
    return runUnderRuntime(suite.runtime, suite.runtimeArguments(script, input.scenario), {
      cwd: REPOSITORY_ROOT,
      timeoutMs: SCRIPT_TIMEOUT_MS,
      ...options,
    });
  }

  describe(`@codex-rpc/${suite.runtime} on ${suite.runtimeName} against the real codex app-server`, () => {
    it("handshakes and streams a turn whose text equals the mock's reply; close() leaves no process", async () => {
      const text = "The quick brown fox jumps over the lazy dog.";
      const { provider, home, workspace, env } = await offlineCodex([reply.text(text, { chunks: 5 })]);
      const run = await runScenario({ scenario: "turn", env, cwd: workspace, prompt: "Say the pangram." });
      expectFinished(run);

      const initialized = resultOf(run, "initialized");
      expect(initialized.initializeResponse).toMatchObject({ userAgent: expect.stringContaining(`codex-rpc-${suite.runtime}-tests`), codexHome: home.dir });
      const turn = resultOf(run, "turn-completed");
      expect(turn).toMatchObject({ status: "completed", finalText: text });
      expect(turn.deltas.length).toBeGreaterThan(1);
      expect(turn.deltas.join("")).toBe(text);
      expect(provider.requests).toHaveLength(1);
      expect(resultOf(run, "closed").close).toMatchObject({ reason: "closed", exitCode: 0, stderrTail: expect.any(Array) });
      expect(isProcessRunning(initialized.pid)).toBe(false);
    });

    it("fails with BINARY_NOT_FOUND listing every place it searched", async () => {
      const emptyProject = await temporaryDirectory("no-codex");
      const emptyBin = await temporaryDirectory("empty-bin");
      const { CODEX_BIN: _codexBin, NODE_OPTIONS: _nodeOptions, ...inherited } = process.env;
      const run = await runScenario({ scenario: "not-found" }, { cwd: emptyProject, env: { ...inherited, PATH: emptyBin } });
      expectFinished(run);

      const search = resultOf(run, "search-failed").error;
      expect(search).toMatchObject({ name: "CodexRpcError", code: "BINARY_NOT_FOUND" });
      expect(search.message).toContain("CODEX_BIN: not set");
      expect(search.message).toContain(`@openai/codex in node_modules from ${emptyProject} upwards: not installed there`);
      expect(search.message).toMatch(/PATH: no executable codex in any of its \d+ directories/);
      const explicit = resultOf(run, "explicit-failed").error;
      expect(explicit).toMatchObject({ code: "BINARY_NOT_FOUND" });
      expect(explicit.message).toContain("the explicit path /nonexistent/bin/codex: does not exist");
    });

    it("an exit at start (CODEX_HOME missing) rejects connect with ConnectionClosedError: exit code and stderr tail", async () => {
      const workspace = await temporaryDirectory("workspace");
      const missingHome = join(workspace, "no-such-codex-home");
      const run = await runScenario({
        scenario: "exit-at-start",
        env: { PATH: process.env.PATH ?? "", CODEX_HOME: missingHome, HOME: workspace, NO_COLOR: "1" },
        cwd: workspace,
      });
      expectFinished(run);

      const { error } = resultOf(run, "connect-failed");
      expect(error).toMatchObject({ name: "ConnectionClosedError", code: "CONNECTION_CLOSED", isConnectionClosedError: true });
      expect(error.close).toMatchObject({ reason: "exit", exitCode: 1, signal: null });
      expect(error.close.stderrTail.join("\n")).toContain("no-such-codex-home");
      expect(error.message).toContain("server exited with code 1");
      expect(isProcessRunning(resultOf(run, "spawned").pid)).toBe(false);
    });

    it("a server SIGKILLed mid-turn rejects the turn with CONNECTION_CLOSED and the signal; the script ends by itself", async () => {
      const { provider, workspace, env } = await offlineCodex([reply.hang()]);
      let killed: Promise<void> | undefined;
      const run = await runScenario(
        { scenario: "killed-mid-turn", env, cwd: workspace },
        {
          onResult: (result) => {
            if (result.event !== "turn-started") return;
            killed = provider.waitForRequests(1).then(() => {
              process.kill(result.pid as number, "SIGKILL");
            });
          },
        },
      );
      await killed;
      expectFinished(run);

      const { error } = resultOf(run, "turn-failed");
      expect(error).toMatchObject({ code: "CONNECTION_CLOSED", isConnectionClosedError: true });
      expect(error.close).toMatchObject({ reason: "exit", exitCode: null, signal: "SIGKILL", stderrTail: expect.any(Array) });
      expect(resultOf(run, "closed").close).toMatchObject({ reason: "exit", signal: "SIGKILL" });
      expect(isProcessRunning(resultOf(run, "turn-started").pid)).toBe(false);
    });

    it("cancellation: an aborted signal starts nothing, aborts connect() and connectCodex() mid-handshake; await using ends transports and clients", async () => {
      const { workspace, env } = await offlineCodex([reply.text("Disposed cleanly.", { chunks: 3 })]);
      const run = await runScenario({ scenario: "cancellation", env, cwd: workspace, prompt: "Say it." });
      expectFinished(run);

      expect(resultOf(run, "spawn-aborted").error).toMatchObject({ name: "RequestAbortedError", code: "REQUEST_ABORTED" });
      const aborted = resultOf(run, "connect-aborted");
      expect(aborted.error).toMatchObject({ name: "RequestAbortedError", code: "REQUEST_ABORTED" });
      expect(aborted.close).toMatchObject({ reason: "closed" });
      expect(isProcessRunning(aborted.pid)).toBe(false);
      expect(resultOf(run, "connect-codex-aborted").error).toMatchObject({ name: "RequestAbortedError", code: "REQUEST_ABORTED" });
      expect(isProcessRunning(resultOf(run, "transport-disposed").pid)).toBe(false);
      expect(resultOf(run, "turn-completed")).toMatchObject({ status: "completed", finalText: "Disposed cleanly.", state: "open" });
      resultOf(run, "client-disposed");
    });
  });
}

/** The script ended by itself, cleanly, and printed `done`. */
function expectFinished(run: RuntimeRun): void {
  expect({ timedOut: run.timedOut, exitCode: run.exitCode, otherOutput: run.otherOutput }, run.stderr).toEqual({
    timedOut: false,
    exitCode: 0,
    otherOutput: [],
  });
  expect(run.results.at(-1)).toEqual({ event: "done" });
}

function resultOf(run: RuntimeRun, event: string): Record<string, any> {
  const found = run.results.find((result) => result.event === event);
  if (!found) throw new Error(`the script printed no ${event}; it printed ${JSON.stringify(run.results)}; stderr: ${run.stderr}`);
  return found;
}
