#!/usr/bin/env node
// Request benchmark: round-trip latency (one request at a time) and throughput (a window of
// requests in flight) of `thread/list`, ours (CodexClient.requestUntyped) against a minimal
// hand-written driver (an id → resolver map, nothing else), on two paths:
//   loopback     createLoopbackTransportPair + FakeAppServer from @codex-rpc/core/testing; the
//                hand driver uses a loopback pair whose server end answers directly
//   real codex   the pinned `codex app-server` (CODEX_HOME from @codex-rpc/testing, mock model that
//                is never called); ours over NodeStdioTransport, the hand driver writes NDJSON to the
//                child's stdin and splits its stdout itself
// A measuring program, not a test.
//
// Usage: node tools/bench/requests.mjs [--rounds N] [--json FILE]
import { spawn } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { importBuilt, ROOT } from "../support/built-packages.mjs";
import { machine, markdownTable, ours, stats } from "./lib.mjs";

const PARAMS = {};
const LIST_RESULT = { data: [], nextCursor: null };

/** `count` requests one after the other: per-request microseconds. */
async function latency(request, count) {
  const us = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await request();
    us.push((performance.now() - start) * 1000);
  }
  return us;
}

/** `total` requests with up to `window` in flight: requests per second. */
async function throughput(request, total, window) {
  let sent = 0;
  const start = performance.now();
  const lane = async () => {
    while (sent < total) {
      sent++;
      await request();
    }
  };
  await Promise.all(Array.from({ length: window }, lane));
  return total / ((performance.now() - start) / 1000);
}

/** A hand-written JSON-RPC driver over any `send(message)`: responses go to `receive`. */
function handDriver(send) {
  const pending = new Map();
  let nextId = 1;
  return {
    receive(message) {
      const settle = pending.get(message.id);
      if (settle === undefined) return;
      pending.delete(message.id);
      if (message.error !== undefined) settle.reject(new Error(`${message.error.code}: ${message.error.message}`));
      else settle.resolve(message.result);
    },
    request(method, params) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        send({ id, method, params });
      });
    },
  };
}

async function loopbackOurs() {
  const { CodexClient, FakeAppServer } = await ours();
  const fake = new FakeAppServer();
  fake.respond("thread/list", () => ({ result: LIST_RESULT }));
  const client = await CodexClient.connect(fake.transport, { requestTimeoutMs: 600_000 });
  return { request: () => client.requestUntyped("thread/list", PARAMS), close: () => client.close() };
}

async function loopbackHand() {
  const { createLoopbackTransportPair } = await ours();
  const [clientEnd, serverEnd] = createLoopbackTransportPair();
  serverEnd.messages$.subscribe((message) => {
    if (message.id !== undefined && message.method !== undefined) void serverEnd.send({ id: message.id, result: LIST_RESULT });
  });
  const driver = handDriver((message) => void clientEnd.send(message));
  clientEnd.messages$.subscribe((message) => driver.receive(message));
  return { request: () => driver.request("thread/list", PARAMS), close: () => clientEnd.close() };
}

async function codexEnvironment() {
  const { MockResponsesProvider, createCodexHome } = await importBuilt("packages/testing/dist/index.js");
  const { findCodexBinary } = await ours();
  const provider = await MockResponsesProvider.start({ script: [] });
  const home = await createCodexHome({ provider });
  const workspace = join(home.dir, "workspace");
  await mkdir(workspace);
  return {
    binary: findCodexBinary({ env: {}, packageSearchFrom: [ROOT] }),
    workspace,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...home.env },
    dispose: async () => {
      await provider.close();
      await home.cleanup();
    },
  };
}

async function codexOurs(environment) {
  const { CodexClient, NodeStdioTransport } = await ours();
  const child = spawn(environment.binary, ["app-server"], { cwd: environment.workspace, env: environment.env, stdio: ["pipe", "pipe", "pipe"] });
  const client = await CodexClient.connect(new NodeStdioTransport(child, { cwd: environment.workspace }), { requestTimeoutMs: 600_000 });
  return { request: () => client.requestUntyped("thread/list", PARAMS), close: () => client.close() };
}

async function codexHand(environment) {
  const child = spawn(environment.binary, ["app-server"], { cwd: environment.workspace, env: environment.env, stdio: ["pipe", "pipe", "ignore"] });
  const driver = handDriver((message) => child.stdin.write(`${JSON.stringify(message)}\n`));
  let partial = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (text) => {
    const lines = (partial + text).split("\n");
    partial = lines.pop();
    for (const line of lines) if (line !== "") driver.receive(JSON.parse(line));
  });
  await driver.request("initialize", { clientInfo: { name: "bench_hand_driver", title: "bench", version: "0.0.0" } });
  child.stdin.write(`${JSON.stringify({ method: "initialized" })}\n`);
  return {
    request: () => driver.request("thread/list", PARAMS),
    close: () =>
      new Promise((resolve) => {
        child.once("exit", resolve);
        child.stdin.end();
        setTimeout(() => child.kill("SIGKILL"), 2000).unref();
      }),
  };
}

export async function measureRequests({ rounds = 7, log = () => {} } = {}) {
  const environment = await codexEnvironment();
  const paths = [
    { key: "loopbackOurs", label: "loopback (FakeAppServer): our client", open: loopbackOurs, latencyCount: 2000, total: 20_000, window: 32 },
    { key: "loopbackHand", label: "loopback: hand-written driver", open: loopbackHand, latencyCount: 2000, total: 20_000, window: 32 },
    { key: "codexOurs", label: "codex app-server (thread/list): our client", open: () => codexOurs(environment), latencyCount: 200, total: 1000, window: 16 },
    {
      key: "codexHand",
      label: "codex app-server (thread/list): hand-written driver",
      open: () => codexHand(environment),
      latencyCount: 200,
      total: 1000,
      window: 16,
    },
  ];
  const samples = Object.fromEntries(paths.map((path) => [path.key, { latencyUs: [], perSecond: [] }]));
  try {
    for (let round = 0; round <= rounds; round++) {
      log(round === 0 ? " warm-up" : ` ${round}`);
      for (const path of paths) {
        const session = await path.open();
        try {
          const us = await latency(session.request, path.latencyCount);
          const perSecond = await throughput(session.request, path.total, path.window);
          if (round > 0) {
            samples[path.key].latencyUs.push(stats(us).median);
            samples[path.key].perSecond.push(perSecond);
          }
        } finally {
          await session.close();
        }
      }
    }
  } finally {
    await environment.dispose();
  }
  return Object.fromEntries(
    paths.map((path) => [
      path.key,
      {
        label: path.label,
        window: path.window,
        latencyUs: stats(samples[path.key].latencyUs),
        perSecond: stats(samples[path.key].perSecond),
      },
    ]),
  );
}

export function printRequests(result, out = console.log) {
  out(
    markdownTable(
      ["path", "round trip µs, median [min–max of round medians]", "requests/s in a window, median [min–max]"],
      Object.values(result).map((row) => [
        `${row.label} (window ${row.window})`,
        `${row.latencyUs.median.toFixed(1)} [${row.latencyUs.min.toFixed(1)}–${row.latencyUs.max.toFixed(1)}]`,
        `${Math.round(row.perSecond.median).toLocaleString("en")} [${Math.round(row.perSecond.min).toLocaleString("en")}–${Math.round(row.perSecond.max).toLocaleString("en")}]`,
      ]),
    ),
  );
}

async function main() {
  const { values: args } = parseArgs({ options: { rounds: { type: "string", default: "7" }, json: { type: "string" } } });
  const info = machine();
  console.log(`request benchmark: node ${info.node}, ${info.cores} cores (${info.cpuModel}), load ${info.loadAverage.join(" ")}; ${args.rounds} rounds`);
  process.stderr.write("rounds:");
  const result = await measureRequests({ rounds: Number(args.rounds), log: (text) => process.stderr.write(text) });
  process.stderr.write("\n");
  printRequests(result);
  if (args.json) (await import("node:fs")).writeFileSync(args.json, JSON.stringify({ machine: info, rounds: Number(args.rounds), paths: result }, null, 2));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
