// Which processes this test process started, for tests that must show a call left none behind
// when it does not hand out its child's PID (connectCodex).
import { execFileSync } from "node:child_process";

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Every live process descended from this one. */
export function descendants(): number[] {
  const table = execFileSync("ps", ["-eo", "pid=,ppid="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const parents = [process.pid];
  for (let parent = parents.pop(); parent !== undefined; parent = parents.pop()) {
    for (const [pid, ppid] of table) {
      if (ppid !== parent) continue;
      found.push(pid);
      parents.push(pid);
    }
  }
  // The `ps` that listed them has exited by now.
  return found.filter((pid) => isRunning(pid));
}

/** The processes `work` started: any seen while it ran (sampled every 10 ms), and those still alive after it. */
export async function startedBy(work: () => Promise<unknown>): Promise<{ during: number[]; after: number[] }> {
  const before = new Set(descendants());
  const during: number[] = [];
  const sampling = setInterval(() => during.push(...descendants().filter((pid) => !before.has(pid))), 10);
  try {
    await work();
  } finally {
    clearInterval(sampling);
  }
  return { during: [...new Set(during)], after: descendants().filter((pid) => !before.has(pid)) };
}
