// layerNode with `reconnect` against the real codex 0.169.0: a killed server is started again, the
// client works on, and closing the Layer's scope ends the process running then (no child left).
import { execFileSync } from "node:child_process";
import { pinnedCodexBinary } from "@codex-rpc/test-support/pinned-codex.js";
import { createCodexHome, MockResponsesProvider } from "@codex-rpc/testing";
import { Effect, Layer } from "effect";
import { describe, expect, it } from "vitest";
import { CodexClient } from "../src/index.js";
import { layerNode } from "../src/node.js";

/** This process's child processes but `ps` itself. */
const children = (): number[] =>
  execFileSync("ps", ["-o", "pid=,comm=", "--ppid", String(process.pid)], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([, command]) => command !== undefined && command !== "ps")
    .map(([pid]) => Number(pid));

describe("layerNode with reconnect", () => {
  it("restarts a killed codex; closing the Layer ends the one running then", async () => {
    const provider = await MockResponsesProvider.start();
    const home = await createCodexHome({ provider });
    const before = children();
    try {
      const spawn = { codexPath: pinnedCodexBinary(), env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...home.env } };
      const pids = await Effect.runPromise(
        Effect.gen(function* () {
          const codex = yield* CodexClient;
          const first = children().filter((pid) => !before.includes(pid));
          for (const pid of first) process.kill(pid, "SIGKILL");
          for (let i = 0; i < 300 && (codex.client.state === "open" || children().every((pid) => before.includes(pid) || first.includes(pid))); i++)
            yield* Effect.sleep("20 millis");
          for (let i = 0; i < 300 && codex.client.state !== "open"; i++) yield* Effect.sleep("20 millis");
          const thread = yield* codex.startThread({ cwd: home.dir, approvalPolicy: "never" });
          expect(thread.id).toBeTruthy();
          return { first, second: children().filter((pid) => !before.includes(pid) && !first.includes(pid)) };
        }).pipe(Effect.provide(layerNode(spawn, { reconnect: { initialDelayMs: 10 } }))),
      );
      expect(pids.first).toHaveLength(1);
      expect(pids.second).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(children().filter((pid) => !before.includes(pid))).toEqual([]);
    } finally {
      await provider.close();
      await home.cleanup();
    }
  });

  it("interrupted while it builds (a restartable spawn is core's to close), at several moments: no child left", async () => {
    const provider = await MockResponsesProvider.start();
    const home = await createCodexHome({ provider });
    const before = children();
    try {
      const spawn = { codexPath: pinnedCodexBinary(), env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...home.env } };
      for (const ms of [1, 5, 10, 20, 40, 60, 80, 100, 150]) {
        await Effect.runPromiseExit(Effect.scoped(Layer.build(layerNode(spawn, { reconnect: true }))).pipe(Effect.timeout(`${ms} millis`)));
      }
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(children().filter((pid) => !before.includes(pid))).toEqual([]);
    } finally {
      await provider.close();
      await home.cleanup();
    }
  });
});
