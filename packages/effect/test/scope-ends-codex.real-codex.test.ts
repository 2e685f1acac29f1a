// The scoped Layer against the real codex 0.169.0: however the program ends (success, failure,
// interruption, a Layer interrupted while it builds, two builds at once), no codex process is left.
import { execFileSync } from "node:child_process";
import { pinnedCodexBinary } from "@codex-rpc/test-support/pinned-codex.js";
import { isRunning } from "@codex-rpc/test-support/process-tree.js";
import { reply } from "@codex-rpc/testing";
import { Context, Effect, Exit, Fiber, Layer, Stream } from "effect";
import { describe, expect, it } from "vitest";
import { CodexClient } from "../src/index.js";
import { layerOffline, OfflineCodex } from "../src/testing.js";

const offline = () => layerOffline({ script: [reply.hang()], codexPath: pinnedCodexBinary() });

/** This process's child processes (a codex left running would be one). */
const children = (): number[] => {
  try {
    // `ps` is a child too: left out by name.
    return execFileSync("ps", ["-o", "pid=,comm=", "--ppid", String(process.pid)], { encoding: "utf8" })
      .split("\n")
      .map((line) => line.trim().split(/\s+/))
      .filter(([, command]) => command !== undefined && command !== "ps")
      .map(([pid]) => Number(pid));
  } catch {
    return [];
  }
};

/** A program that starts a turn codex never ends and records the process id. */
const hangingTurn = (pids: number[]) =>
  Effect.gen(function* () {
    const { pid, workspace } = yield* OfflineCodex;
    pids.push(pid as number);
    const thread = yield* (yield* CodexClient).startThread({ cwd: workspace, approvalPolicy: "never" });
    const turn = yield* thread.run("Hang on", { stopGrace: "2 seconds" });
    yield* Effect.promise(() => turn.turn.started);
    return turn;
  });

describe("closing the Layer's scope ends codex however the program ends", () => {
  it("a program that fails mid-turn", async () => {
    const pids: number[] = [];
    const exit = await Effect.runPromiseExit(
      Effect.scoped(Effect.flatMap(hangingTurn(pids), () => Effect.fail("app failure" as const))).pipe(Effect.provide(offline())),
    );
    expect(Exit.isFailure(exit)).toBe(true);
    expect(pids).toHaveLength(1);
    expect(isRunning(pids[0] as number)).toBe(false);
  });

  it("a program interrupted mid-turn (Fiber.interrupt)", async () => {
    const pids: number[] = [];
    const exit = await Effect.runPromiseExit(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(Effect.scoped(Effect.flatMap(hangingTurn(pids), (turn) => turn.completed)).pipe(Effect.provide(offline())), {
          startImmediately: true,
        });
        while (pids.length === 0) yield* Effect.sleep("50 millis");
        yield* Effect.sleep("500 millis");
        yield* Fiber.interrupt(fiber);
      }),
    );
    expect(Exit.isSuccess(exit)).toBe(true);
    expect(isRunning(pids[0] as number)).toBe(false);
  });

  it("a program timed out by Effect.timeout while reading the turn's text", async () => {
    const pids: number[] = [];
    const exit = await Effect.runPromiseExit(
      Effect.scoped(Effect.flatMap(hangingTurn(pids), (turn) => Stream.runCollect(turn.text))).pipe(Effect.timeout("3 seconds"), Effect.provide(offline())),
    );
    expect(Exit.isFailure(exit)).toBe(true);
    expect(isRunning(pids[0] as number)).toBe(false);
  });

  it("the same Layer provided to two programs at once: two processes, both ended", async () => {
    const pids: number[] = [];
    const layer = offline();
    const one = Effect.scoped(Effect.flatMap(hangingTurn(pids), () => Effect.void)).pipe(Effect.provide(layer));
    await Effect.runPromise(Effect.all([one, one], { concurrency: 2 }));
    expect(new Set(pids).size).toBe(2);
    for (const pid of pids) expect(isRunning(pid)).toBe(false);
  });

  it("one Layer shared by two programs (provided once around both): one process, ended", async () => {
    const pids: number[] = [];
    const one = Effect.scoped(Effect.flatMap(hangingTurn(pids), () => Effect.void));
    await Effect.runPromise(Effect.all([one, one], { concurrency: 2 }).pipe(Effect.provide(offline())));
    expect(new Set(pids).size).toBe(1);
    expect(isRunning(pids[0] as number)).toBe(false);
  });

  it("a Layer interrupted while it builds (at several moments) leaves no child process", async () => {
    const before = children();
    for (const ms of [1, 5, 10, 20, 40, 60, 80, 100, 120]) {
      await Effect.runPromiseExit(Effect.scoped(Layer.build(offline())).pipe(Effect.timeout(`${ms} millis`)));
    }
    // Give the processes' shutdown (end stdin, SIGTERM) a moment.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const left = children().filter((pid) => !before.includes(pid));
    expect(left).toEqual([]);
  });

  it("closing a built Layer's scope: the PID from OfflineCodex is gone", async () => {
    const pid = await Effect.runPromise(Effect.scoped(Effect.map(Layer.build(offline()), (context) => Context.get(context, OfflineCodex).pid as number)));
    expect(isRunning(pid)).toBe(false);
  });
});
