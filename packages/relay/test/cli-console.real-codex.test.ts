// `codex-rpc-relay --console` / `--open` (dist/cli.js) with the real codex 0.169.0: it prints the
// console's URL with the token in the #fragment, serves the built console (packages/relay/console)
// at /, and --open without a browser to open says so and keeps serving.
import type { ChildProcess } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { startRelayCli } from "./support/relay-cli.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function waitForOutput(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.setEncoding("utf8").on("data", (text: string) => {
      out += text;
      const match = pattern.exec(out);
      if (match) resolve(match);
    });
    child.once("exit", (code) => reject(new Error(`the CLI exited (${code}): ${out}`)));
  });
}

async function startCli(flag: string, path: string) {
  const { child, output, exited } = await startRelayCli(cleanups, [flag], path);
  const match = await waitForOutput(child, /^token: (\S+)\nconsole: (http:\/\/127\.0\.0\.1:(\d+)\/#token=(\S+))\n/m);
  return { child, output, exited, token: match[1]!, consoleUrl: match[2]!, port: match[3]!, fragmentToken: match[4]! };
}

it("--console prints the console URL (token in the fragment) and serves the built console at /", async () => {
  const { child, exited, token, consoleUrl, port, fragmentToken } = await startCli("--console", process.env.PATH ?? "/usr/bin:/bin");
  expect(fragmentToken).toBe(token);
  expect(consoleUrl.split("#")[0]).toBe(`http://127.0.0.1:${port}/`);
  const index = await fetch(`http://127.0.0.1:${port}/`);
  expect(index.status).toBe(200);
  const html = await index.text();
  expect(html).toContain("<title>codex-rpc console</title>");
  expect(html).not.toContain(token);
  expect((await fetch(`http://127.0.0.1:${port}/app.js`)).status).toBe(200);
  child.kill("SIGTERM");
  expect(await exited).toBe(0);
});

it("--open with no browser opener on PATH says so on stderr and keeps serving", async () => {
  const { child, output, exited, port } = await startCli("--open", "/nonexistent");
  for (let i = 0; i < 50 && !output.stderr.includes("could not open a browser"); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(output.stderr).toContain("could not open a browser; open the console URL above yourself");
  expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
  child.kill("SIGTERM");
  expect(await exited).toBe(0);
});

it("--open hands the browser opener a one-time code, never the token (issue 15, finding 5)", async () => {
  // A stand-in xdg-open that writes down the argv it was given (what /proc/<pid>/cmdline shows).
  const bin = await mkdtemp(join(tmpdir(), "codex-rpc-opener-"));
  cleanups.push(() => rm(bin, { recursive: true, force: true }));
  const argvFile = join(bin, "argv.txt");
  await writeFile(join(bin, "xdg-open"), `#!/bin/sh\nprintf '%s\\n' "$@" > '${argvFile}'\n`);
  await chmod(join(bin, "xdg-open"), 0o755);
  const { child, exited, token, port } = await startCli("--open", bin);
  let argv = "";
  for (let i = 0; i < 100 && !argv; i++) {
    argv = await readFile(argvFile, "utf8").catch(() => "");
    if (!argv) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  console.log(`--open ran: xdg-open ${argv.trim()}`);
  expect(argv).not.toContain(token);
  const code = /^http:\/\/127\.0\.0\.1:(\d+)\/#code=([\w-]+)$/m.exec(argv);
  expect(code?.[1]).toBe(port);
  const exchange = () =>
    fetch(`http://127.0.0.1:${port}/.well-known/codex-rpc-relay/code`, {
      method: "POST",
      headers: { origin: `http://127.0.0.1:${port}`, "content-type": "application/json" },
      body: JSON.stringify({ code: code?.[2] }),
    });
  expect(await (await exchange()).json()).toEqual({ token });
  expect((await exchange()).status).toBe(403);
  child.kill("SIGTERM");
  expect(await exited).toBe(0);
});
