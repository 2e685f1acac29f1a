#!/usr/bin/env node
// codex-rpc-relay: starts a relay (spawning `codex app-server` unless --upstream names a running
// one), prints its URL and launch token once, and runs until SIGINT or SIGTERM.
import { parseArgs } from "node:util";
import { BUNDLED_CONSOLE_DIR } from "./console-files.js";
import { openBrowser } from "./open-browser.js";
import { isLoopbackHost } from "./origin-policy.js";
import { startRelay } from "./start-relay.js";
import type { RelayUpstream } from "./upstream.js";

const USAGE = `Usage: codex-rpc-relay [options]

  --port N                 port to listen on (default 4510; 0: a free one)
  --host HOST              address to listen on (default 127.0.0.1)
  --allow-non-loopback     allow a HOST that is not a loopback address
  --origin ORIGIN          allow pages of this origin (repeatable), e.g. http://localhost:5173
  --upstream URL           a running app-server: ws://IP:PORT or unix:///path/to.sock
                           (default: spawn \`codex app-server\`)
  --isolation MODE         threads (default: one app-server, threads scoped per connection)
                           or process (an app-server session per connection)
  --codex PATH             the codex binary to spawn (default: the one CODEX_BIN names, else
                           the @openai/codex package's, else codex on PATH)
  --max-message-bytes N    largest message a page may send (default 8388608)
  --max-connections N      pages connected at once (default 32); one more closes with 1013
  --verbose                log connections and refusals to stderr (secrets redacted)
  --open                   serve the web console at the relay's URL and open it in the browser
                           (with a one-time code in the URL's #fragment, valid once for 60 s,
                           that the page exchanges for the token, never the token itself; the
                           opener's argv is readable by other local users, who may exchange the
                           code first: on a shared machine use --console and paste the URL)
  --console                serve the web console without opening a browser
  --help`;

/** A mistake on the command line: printed with the usage, exit code 2, before anything starts. */
class UsageError extends Error {}

function upstreamOf(value: string | undefined, codexPath: string | undefined): RelayUpstream {
  if (value === undefined) return { spawn: codexPath === undefined ? {} : { codexPath } };
  const scheme = /^([a-z][\w+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  if (scheme === "unix" && value.slice(5, 7) === "//") return { socketPath: value.slice("unix://".length) };
  if ((scheme === "ws" || scheme === "wss") && value.slice(scheme.length + 1, scheme.length + 3) === "//") return { url: value };
  // The value is not quoted: whatever its form, it may hold a password (`user:pw@host`, `http:/user:pw@…`).
  throw new UsageError(`--upstream: expected ws://…, wss://… or unix://…, got ${scheme ? `a URL of scheme ${scheme}:` : "something else"}`);
}

/**
 * The flag's value as a whole number from `min` to `max`: digits only, so that `8M`, `abc` or `1e6`
 * is refused here rather than becoming NaN (which `ws` would take as no size limit at all).
 */
function wholeNumber(flag: string, value: string, min: 0 | 1, max = Number.MAX_SAFE_INTEGER): number {
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (number >= min && number <= max) return number;
  const range = min === 0 || number > max ? `from ${min} to ${max}` : "above 0";
  throw new UsageError(`${flag}: expected a whole number ${range}, got ${JSON.stringify(value)}`);
}

function parseCommandLine() {
  try {
    return parseArgs({
      options: {
        port: { type: "string", default: "4510" },
        host: { type: "string", default: "127.0.0.1" },
        "allow-non-loopback": { type: "boolean", default: false },
        origin: { type: "string", multiple: true, default: [] },
        upstream: { type: "string" },
        codex: { type: "string" },
        isolation: { type: "string", default: "threads" },
        "max-message-bytes": { type: "string" },
        "max-connections": { type: "string" },
        verbose: { type: "boolean", default: false },
        open: { type: "boolean", default: false },
        console: { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
    }).values;
  } catch (error) {
    // An unknown option, a value missing…
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

async function main(): Promise<void> {
  const values = parseCommandLine();
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const isolation = values.isolation;
  if (isolation !== "threads" && isolation !== "process") throw new UsageError(`--isolation: expected threads or process, got ${JSON.stringify(isolation)}`);
  const port = wholeNumber("--port", values.port, 0, 65_535);
  const maxMessageBytes = values["max-message-bytes"] === undefined ? undefined : wholeNumber("--max-message-bytes", values["max-message-bytes"], 1);
  const maxConnections = values["max-connections"] === undefined ? undefined : wholeNumber("--max-connections", values["max-connections"], 1);
  if (!values["allow-non-loopback"] && !isLoopbackHost(values.host)) {
    throw new UsageError(
      `--host ${values.host} is not a loopback address; pass --allow-non-loopback to listen there (anyone who can reach it may try the token)`,
    );
  }
  const upstream = upstreamOf(values.upstream, values.codex);
  const relay = await startRelay({
    isolation,
    host: values.host,
    port,
    allowNonLoopback: values["allow-non-loopback"],
    allowedOrigins: values.origin,
    upstream,
    ...(maxMessageBytes !== undefined ? { maxMessageBytes } : {}),
    ...(maxConnections !== undefined ? { maxConnections } : {}),
    ...(values.open || values.console ? { consoleDir: BUNDLED_CONSOLE_DIR } : {}),
    // Without --verbose, --open still prints the relay's warnings (a login code presented again).
    ...(values.verbose || values.open ? { log: (line: string) => (values.verbose || line.startsWith("warning: ")) && console.error(`relay: ${line}`) } : {}),
  });
  // Printed once: the page needs both; the token is never written anywhere else.
  console.log(`url: ${relay.url}`);
  console.log(`token: ${relay.token}`);
  if (values.open || values.console) {
    const base = `http://${relay.host.includes(":") ? `[${relay.host}]` : relay.host}:${relay.port}/`;
    console.log(`console: ${base}#token=${relay.token}`);
    // The opener's argv is readable by every local user and the browser keeps the URL: a one-time code goes there, not the token.
    if (values.open && !(await openBrowser(`${base}#code=${relay.createLoginCode()}`))) {
      console.error("codex-rpc-relay: could not open a browser; open the console URL above yourself");
    }
  }
  let stopping = false;
  const stop = () => {
    stopping = true;
    void relay.close().then(() => process.exit(0));
  };
  void relay.upstreamEnded.then(async () => {
    if (stopping) return;
    console.error("codex-rpc-relay: the app-server exited; stopping");
    await relay.close();
    process.exit(1);
  });
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`codex-rpc-relay: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  console.error(`codex-rpc-relay: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
