// tools/bundle-size.mjs: the browser client (core + @codex-rpc/websocket's browser entry) bundles
// for the browser with no Node module, and its size is measured. The target (15 KB
// min+gzip without rxjs) is not met yet (21.7 KB measured, 21.74: 22.84 before what only ws and the server-side runtimes need left the browser entry
// (0.47 KB) and the heartbeat's probing (0.28 KB), the resuming of threads after a reconnect, exec's output and request, a login's reply fields,
// fs.watch's watching and OutputValidationError's schema issues moved out of the first load (0.36 KB); of 22.84: 21.7 KB, then 0.07 KB for putting an agent message that came whole on text$, 0.17 KB for interrupting the turn of a turn/start answered after it timed out, 0.29 KB so that a stalled chunk loaded on demand holds no call, 0.07 KB for sending again an interrupt codex refused before it began the turn, 0.08 KB for taking a WebSocket's echoed secrets out of its frames, 0.26 KB for the wide-delta path of StreamedText and 0.15 KB for turn.steer loaded with the turn again (on demand, an interrupt called after it overtook it) and a command's request queue; 22.8 KB before a turn's rare paths, exec's
// runner, the -32001 retries and the paging loaded on demand; 28.5 KB before the first such round; 21.86 KB, then 0.14 KB for reading the server's version after a clientInfo.name with spaces or slashes, taking a success's `"error": null` as a success and sending a lone surrogate as U+FFFD, 0.05 KB for keeping the notifications that arrive during connect(), 0.14 KB for refusing a handler's answer nested deeper than codex reads, which codex would drop and leave its turn waiting, 0.22 KB for keeping a turn's events for a late reader (`keepEvents`, which the Effect binding sets; the journal itself loads on demand, 0.7 KB if it did not)): the tool exits 1 for it, and this test
// holds the size to its measured ceiling so that it only goes down.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
/** The measured size of core + browser transport (min+gzip, no rxjs), rounded up: lower it as the bundle shrinks. */
const CEILING_KB = 22.45;

interface Report {
  readonly targetKb: number;
  readonly bundles: { name: string; target?: boolean; gzipped: number; minified: number; nodeModules: string[]; error?: string }[];
  readonly failures: string[];
}

it("bundles core + the browser transport for the browser, with no Node module, and measures it", () => {
  const run = spawnSync(process.execPath, [join(ROOT, "tools", "bundle-size.mjs"), "--json"], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
  const report = JSON.parse(run.stdout) as Report;
  expect(report.bundles).toHaveLength(5);
  for (const bundle of report.bundles) {
    expect(bundle.error, bundle.name).toBeUndefined();
    expect(bundle.nodeModules, bundle.name).toEqual([]);
    expect(bundle.gzipped, bundle.name).toBeGreaterThan(1000);
  }
  const target = report.bundles.find((bundle) => bundle.target)!;
  expect(target.gzipped / 1024).toBeLessThanOrEqual(CEILING_KB);
  // Exit 1 exactly when something failed: only the size target may, today.
  expect(report.failures.every((failure) => failure.includes("above the target"))).toBe(true);
  expect(run.status).toBe(target.gzipped > report.targetKb * 1024 ? 1 : 0);
  expect(report.failures.length > 0).toBe(run.status === 1);
});

it("fails when the browser bundle pulls a Node module", async () => {
  const { measure } = (await import(join(ROOT, "tools", "bundle-size.mjs"))) as {
    measure(bundle: { name: string; contents: string; rxjs: boolean }): Promise<{ nodeModules: string[] }>;
  };
  const result = await measure({ name: "node", contents: `export * from "@codex-rpc/websocket/package.json"; import "node:os"; import "ws";`, rxjs: false });
  expect(result.nodeModules.join("\n")).toMatch(/node:os/);
  expect(result.nodeModules.join("\n")).toMatch(/ws/);
});

it("counts the page's own chunk as the first load, not a chunk it import()s (which may be listed first)", async () => {
  const { measure } = (await import(join(ROOT, "tools", "bundle-size.mjs"))) as {
    measure(bundle: { name: string; contents: string; rxjs: boolean }): Promise<{ gzipped: number; lazyGzipped: number }>;
  };
  const result = await measure({ name: "lazy", contents: `export const load = () => import("@codex-rpc/protocol/validators/outgoing");`, rxjs: false });
  expect(result.gzipped).toBeLessThan(200);
  expect(result.lazyGzipped).toBeGreaterThan(10_000);
});
