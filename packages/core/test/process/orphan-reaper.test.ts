import { expect, it } from "vitest";
import { createOrphanReaper } from "../../src/process/orphan-reaper.js";

it("sends SIGTERM at the program's end to the children still running, and hooks the end once", async () => {
  const hooks: Array<() => void> = [];
  const track = createOrphanReaper((reap) => hooks.push(reap));
  const signals: string[] = [];
  const child = (name: string, throws = false) => ({
    kill: (signal: string) => {
      if (throws) throw new Error("ESRCH");
      signals.push(`${name}:${signal}`);
    },
  });
  let exitFirst!: () => void;
  track(child("exited"), new Promise<void>((resolve) => (exitFirst = resolve)));
  track(child("running"), new Promise(() => {}));
  track(child("gone-meanwhile", true), new Promise(() => {}));
  track(child("failed"), Promise.reject(new Error("status failed")));
  exitFirst();
  await new Promise((resolve) => setTimeout(resolve, 0));

  expect(hooks).toHaveLength(1);
  hooks[0]!();
  expect(signals).toEqual(["running:SIGTERM"]);
});
