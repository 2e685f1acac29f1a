// Chromium via the relay: the cases run inside headless Chromium (Debian's chromium, driven by
// playwright-core), each case's app-server behind its own relay (@codex-rpc/relay, spawning codex
// with the case's CODEX_HOME), the page allowed as an origin and presenting the token as a
// subprotocol. This Node script bundles chromium-page.mjs, serves it with the routes the page needs
// (relays, kill, exists, and the orchestrator's control routes, forwarded: the page may only fetch
// its own origin), and prints the page's result lines as its own.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startRelay } from "@codex-rpc/relay";
import { build } from "esbuild";
import { chromium } from "playwright-core";
import { CHROMIUM_SANDBOX, findChromium } from "../../support/find-chromium.mjs";
import { nodeProcess } from "./node-process.mjs";

const config = nodeProcess.readConfig();
const executablePath = findChromium();
if (executablePath === undefined) throw new Error("no chromium: run `node tools/install-chromium.mjs` (as root), or set CHROMIUM_PATH");

const bundleDir = await mkdtemp(join(tmpdir(), "codex-rpc-conformance-chromium-"));
/** @type {import("@codex-rpc/relay").RelayHandle[]} */
const relays = [];
let browser;
let server;
try {
  await build({
    entryPoints: [fileURLToPath(new URL("./chromium-page.mjs", import.meta.url))],
    outdir: bundleDir,
    entryNames: "page",
    bundle: true,
    splitting: true, // the validators (loaded with `validate: true`) as a chunk of their own
    format: "esm",
    platform: "browser",
    target: "es2022",
    logLevel: "error",
  });

  let origin = "";
  /** @param {string} route @param {string} body */
  const forwardToControl = async (route, body) => {
    const response = await fetch(new URL(route, config.controlUrl), { method: "POST", headers: { "content-type": "application/json" }, body });
    return { status: response.status, body: await response.text() };
  };
  /** @param {string} method @param {string} path @param {string} body */
  const answer = async (method, path, body) => {
    if (method === "GET" && path === "/") return { type: "text/html", body: '<!doctype html><script type="module" src="/page.js"></script>' };
    if (method === "GET" && path === "/config") return { type: "application/json", body: JSON.stringify({ ...config, controlUrl: `${origin}/` }) };
    if (method === "GET" && extname(path) === ".js" && !path.includes("..")) return { type: "text/javascript", body: await readFile(join(bundleDir, path)) };
    if (method !== "POST") return { status: 404, type: "text/plain", body: "not found" };
    const params = JSON.parse(body || "{}");
    switch (path) {
      case "/relays": {
        const relay = await startRelay({
          upstream: { spawn: { codexPath: config.codexPath, env: config.scopes[params.scope].env, cwd: config.workspace } },
          allowedOrigins: [origin],
        });
        relays.push(relay);
        const discovery = await (await fetch(`http://127.0.0.1:${relay.port}/.well-known/codex-rpc-relay`)).json();
        const reply = {
          url: discovery.ws,
          subprotocol: discovery.subprotocol,
          tokenSubprotocolPrefix: discovery.tokenSubprotocolPrefix,
          token: relay.token,
          pid: relay.upstreamPid,
        };
        return { type: "application/json", body: JSON.stringify(reply) };
      }
      case "/kill":
        nodeProcess.killProcess(params.pid);
        return { type: "application/json", body: "{}" };
      case "/exists":
        return { type: "application/json", body: JSON.stringify({ exists: nodeProcess.processExists(params.pid) }) };
      default: {
        const forwarded = await forwardToControl(path, body);
        return { status: forwarded.status, type: "application/json", body: forwarded.body };
      }
    }
  };
  server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8").on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      answer(request.method ?? "GET", (request.url ?? "/").split("?")[0] ?? "/", body).then(
        (reply) => response.writeHead(reply.status ?? 200, { "content-type": reply.type, "cache-control": "no-store" }).end(reply.body),
        (error) => response.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: String(error?.message ?? error) })),
      );
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  origin = `http://127.0.0.1:${server.address().port}`;

  browser = await chromium.launch({ executablePath, headless: true, chromiumSandbox: CHROMIUM_SANDBOX, timeout: 30_000 });
  const page = await browser.newPage();
  const done = new Promise((resolve, reject) => {
    page.on("console", (message) => {
      const text = message.text();
      if (text === "conformance-page-done") resolve(undefined);
      else if (text.startsWith("{")) process.stdout.write(`${text}\n`);
    });
    page.on("pageerror", (error) => reject(new Error(`the page failed: ${error.message}`)));
  });
  await page.goto(`${origin}/`);
  await done;
} finally {
  await browser?.close();
  for (const relay of relays) await relay.close();
  server?.close();
  server?.closeAllConnections();
  await rm(bundleDir, { recursive: true, force: true });
}
nodeProcess.exit(0);
