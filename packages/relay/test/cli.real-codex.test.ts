// The codex-rpc-relay CLI (dist/cli.js, as `npx codex-rpc-relay` runs it) with the real codex
// 0.169.0: it prints the URL and the token once, serves a page, logs refusals without the token,
// and on SIGTERM ends the app-server it spawned.
import { type ChildProcess, execFileSync } from "node:child_process";
import { afterEach, expect, it } from "vitest";
import { connectThroughRelay, tryUpgrade } from "./support/relay-clients.js";
import { startRelayCli } from "./support/relay-cli.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The live processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  return execFileSync("ps", ["-eo", "pid=,ppid="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter(([, ppid]) => ppid === pid)
    .map(([child]) => child!);
}

function waitForLines(child: ChildProcess, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.setEncoding("utf8").on("data", (text: string) => {
      out += text;
      const lines = out.split("\n").filter(Boolean);
      if (lines.length >= count) resolve(lines);
    });
    child.once("exit", (code) => reject(new Error(`the CLI exited (${code}) before printing ${count} lines: ${out}`)));
  });
}

/** Runs the CLI (with these extra arguments) against a fresh mock-model CODEX_HOME; waits for its two lines. */
async function startCli(...args: string[]) {
  const cli = await startRelayCli(cleanups, args);
  const lines = await waitForLines(cli.child, 2);
  return { ...cli, lines };
}

it("prints url and token once, serves a page, redacts its log, and ends its app-server on SIGTERM", async () => {
  const { child, output, exited, lines } = await startCli("--origin", "http://localhost:5173", "--verbose");
  const [urlLine, tokenLine] = lines;
  const url = /^url: (ws:\/\/127\.0\.0\.1:\d+\/)$/.exec(urlLine!)![1]!;
  const token = /^token: ([\w-]{43})$/.exec(tokenLine!)![1]!;
  const codexPids = childrenOf(child.pid!);
  expect(codexPids).toHaveLength(1);

  const client = await connectThroughRelay(url, { token, origin: "http://localhost:5173" });
  expect(client.serverVersion).toBe("0.169.0");
  await client.close();
  expect(await tryUpgrade(`${url}?token=${token}`, { token })).toMatchObject({ status: 400 });

  child.kill("SIGTERM");
  expect(await exited).toBe(0);
  expect(childrenOf(child.pid!)).toEqual([]);
  for (const pid of codexPids) expect(() => process.kill(pid, 0)).toThrow();
  expect(output.stderr).toContain("refused an upgrade");
  expect(output.stderr).not.toContain(token);
});

it("stops with exit code 1 when its app-server dies", async () => {
  const { child, output, exited } = await startCli();
  const [codex] = childrenOf(child.pid!);
  process.kill(codex!, "SIGKILL");
  expect(await exited).toBe(1);
  expect(output.stderr).toContain("the app-server exited; stopping");
});
