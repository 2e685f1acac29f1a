// The codex-rpc-relay CLI (dist/cli.js) refusing what it cannot use, before it starts anything
// (review 7, F3 and F9j): a value that is not a number (`--max-message-bytes 8M` became NaN, which
// `ws` takes as no limit), a port Node would reject with its own internal message, a non-loopback
// host (the advice named the library option); and its --help naming the real codex search order.
// No codex is needed: `--codex` names a missing file, so a CLI that does start anything fails fast.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { redactSecrets } from "@codex-rpc/core/transport";
import { closeCode } from "./support/relay-clients.js";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI to its end (killed after 10 s: a CLI that started a relay would run on). */
function runCli(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, "--codex", "/nonexistent/codex", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A usage error: exit code 2, `message` on stderr's first line, then the usage. */
function expectUsageError(run: Run, message: RegExp, label: string): void {
  expect(run.stderr.split("\n")[0], label).toMatch(message);
  expect(run.stderr, label).toContain("Usage: codex-rpc-relay");
  expect(run.code, label).toBe(2);
  expect(run.stdout, label).toBe("");
}

describe("codex-rpc-relay refuses values it cannot use, with a usage message", () => {
  it("a --max-message-bytes or --max-connections that is not a whole number above 0 (review 7, F3)", async () => {
    for (const value of ["8M", "abc", "0", "-1", "1.5", "1e6", ""]) {
      const run = await runCli(`--max-message-bytes=${value}`);
      expectUsageError(run, new RegExp(`^codex-rpc-relay: --max-message-bytes: expected a whole number above 0, got "${value}"$`), value);
    }
    expectUsageError(await runCli("--max-connections", "x"), /^codex-rpc-relay: --max-connections: expected a whole number above 0, got "x"$/, "x");
  });

  it("a --port that is not a whole number from 0 to 65535, instead of Node's internal message (review 7, F9j)", async () => {
    for (const value of ["abc", "70000", "-1", "1.5", ""]) {
      const run = await runCli(`--port=${value}`);
      expectUsageError(run, new RegExp(`^codex-rpc-relay: --port: expected a whole number from 0 to 65535, got "${value}"$`), value);
      expect(run.stderr).not.toContain("Received");
    }
  });

  it("a non-loopback --host names the CLI's flag, not the library option (review 7, F9j)", async () => {
    const run = await runCli("--host", "0.0.0.0");
    expectUsageError(run, /^codex-rpc-relay: --host 0\.0\.0\.0 is not a loopback address; pass --allow-non-loopback to listen there/, "0.0.0.0");
    expect(run.stderr).not.toContain("allowNonLoopback");
  });

  it("a number past the largest it takes names the range; an --upstream that is no ws:// or unix:// URL is quoted without its credentials (review 8)", async () => {
    expectUsageError(
      await runCli("--max-connections", "99999999999999999999"),
      /^codex-rpc-relay: --max-connections: expected a whole number from 1 to 9007199254740991, got "99999999999999999999"$/,
      "huge",
    );
    for (const [value, got] of [
      ["http://user:SECRETPW@127.0.0.1:4500/", "a URL of scheme http:"],
      ["ws:/user:SECRETPW@host", "a URL of scheme ws:"],
      ["user:SECRETPW@host:8080", "a URL of scheme user:"],
      ["admin@SECRETPW", "something else"],
    ] as const) {
      const run = await runCli("--upstream", value);
      expectUsageError(run, new RegExp(`^codex-rpc-relay: --upstream: expected ws://…, wss://… or unix://…, got ${got}$`), value);
      expect(run.stderr).not.toContain("SECRETPW");
    }
  });

  it("an unknown option or a bad --isolation is a usage error too", async () => {
    expectUsageError(await runCli("--nope"), /^codex-rpc-relay: .*--nope/, "--nope");
    expectUsageError(await runCli("--isolation", "none"), /^codex-rpc-relay: --isolation: expected threads or process, got "none"$/, "none");
  });
});

it("--help names where codex is looked for, in the order the search goes (review 7, F9j)", async () => {
  const { code, stdout } = await runCli("--help");
  expect(code).toBe(0);
  const codex = stdout.slice(stdout.indexOf("--codex PATH"), stdout.indexOf("--max-message-bytes"));
  expect(codex).not.toContain("node_modules");
  const order = ["CODEX_BIN", "@openai/codex", "on PATH"].map((place) => codex.indexOf(place));
  expect(order.every((at) => at > 0)).toBe(true);
  expect(order).toEqual([...order].sort((a, b) => a - b));
  // Read as written even where it is logged: no `token: <word>` for the secret redactor to take (F9e).
  expect(redactSecrets(stdout)).toBe(stdout);
});

it("valid limits still reach the relay: --max-message-bytes 1024 closes a 2 KiB message with 1009", async () => {
  // A stand-in app-server: the relay only needs its initialize answered.
  const upstream = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  cleanups.push(() => upstream.close());
  await new Promise((resolve) => upstream.once("listening", resolve));
  upstream.on("connection", (socket) =>
    socket.on("message", (data) => {
      const message = JSON.parse(String(data)) as { id?: number; method?: string };
      if (message.method === "initialize") socket.send(JSON.stringify({ id: message.id, result: { userAgent: "stand-in/0.169.0 (x)" } }));
    }),
  );
  const child = spawn(
    process.execPath,
    [
      CLI,
      "--port",
      "0",
      "--max-message-bytes",
      "1024",
      "--max-connections",
      "3",
      "--upstream",
      `ws://127.0.0.1:${(upstream.address() as { port: number }).port}`,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  cleanups.push(() => void child.kill("SIGKILL"));
  const lines = await new Promise<string[]>((resolve, reject) => {
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      out += text;
      if (out.split("\n").length > 2) resolve(out.split("\n"));
    });
    child.once("exit", (code) => reject(new Error(`exited ${code}`)));
  });
  const url = lines[0]!.replace(/^url: /, "");
  const token = lines[1]!.replace(/^token: /, "");
  const socket = new WebSocket(url, ["codex-rpc.v1", `codex-rpc.token.${token}`]);
  await new Promise((resolve, reject) => (socket.once("open", resolve), socket.once("error", reject)));
  const closed = closeCode(socket);
  socket.send(JSON.stringify({ id: 1, method: "initialize", params: { pad: "x".repeat(2048) } }));
  expect(await closed).toBe(1009);
});
