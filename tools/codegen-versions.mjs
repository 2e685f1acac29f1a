#!/usr/bin/env node
// Proves the generator on every stable @openai/codex release from 0.160.0 to 0.169.0. For each
// version it
//   1. installs @openai/codex@<version> into .codex-versions/<version>/ (git-ignored; reused),
//   2. exports its schemas with the real binary (`app-server generate-json-schema`, with and
//      without `--experimental`) into a temporary directory (codegen's exportCodexSchemas),
//   3. runs the generator on them (no result map: only the built-in rules),
//   4. compiles the output, strict, under module/moduleResolution nodenext and bundler,
//   5. starts that version's `codex app-server` (stdio, offline: empty temporary CODEX_HOME and HOME,
//      a loopback model provider nobody listens on), sends initialize/initialized and a set of
//      read-only requests that answer offline, and checks every result (and every notification)
//      with the validators generated for that version,
// then prints one table row per version. Each version is also generated once more with RESULT_TABLE
// emptied, to show what the other rules find by themselves (and that none of it is wrong).
//
// Usage: node tools/codegen-versions.mjs [--versions 0.160.0,0.169.0] [--json FILE] [--keep]
//   --json FILE  also writes every row, with failures and warnings, as JSON
//   --keep       keeps each version's temporary directory (schemas, output, server home)
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";

const VERSIONS = ["0.160.0", "0.160.1", "0.161.0", "0.162.0", "0.162.1", "0.163.0", "0.164.0", "0.165.0", "0.166.0", "0.169.0"];
const ROOT = resolve(import.meta.dirname, "..");
const CACHE = join(ROOT, ".codex-versions");
const CODEGEN_DIR = join(ROOT, "packages", "codegen");
const CODEGEN_ENTRY = join(CODEGEN_DIR, "dist", "index.js");
const RULES = ["convention", "table", "inferred", "user-map", "unknown"];
const NO_SUCH_THREAD = "00000000-0000-0000-0000-000000000000";

/**
 * Read-only requests that answer without network or an account (those of
 * packages/protocol/test/app-server.real-codex.test.ts). Each is sent when the version has the method and
 * one of its params candidates passes that version's generated params validator.
 */
const READS = [
  ["initialize", () => undefined], // sent first, listed for the count
  ["config/read", ({ home }) => [{ cwd: home, includeLayers: true }]],
  ["configRequirements/read", () => [undefined]],
  ["model/list", () => [{ includeHidden: true }]],
  ["modelProvider/list", () => [{}]],
  ["modelProvider/capabilities/read", () => [{}]],
  ["account/read", () => [{ refreshToken: false }]],
  ["account/gatewayOAuth/read", () => [{}, undefined]],
  ["account/securitySetup/read", () => [undefined]],
  ["thread/list", () => [{}]],
  ["thread/loaded/list", () => [{}]],
  ["thread/attachment/list", () => [{ threadId: NO_SUCH_THREAD }]],
  ["thread/attachmentOwner/list", () => [{ attachmentType: "file", identityKey: "nothing-here" }]],
  ["threadSection/list", () => [{}]],
  ["skills/list", ({ home }) => [{ cwds: [home] }]],
  ["hooks/list", ({ home }) => [{ cwds: [home] }]],
  ["plugin/list", () => [{}]],
  ["plugin/installed", () => [{}]],
  ["app/list", () => [{}]],
  ["app/read", () => [{ appIds: ["no-such-app"] }]],
  ["app/installed", () => [{}]],
  ["mcpServerStatus/list", () => [{}]],
  ["experimentalFeature/list", () => [{}]],
  ["permissionProfile/list", ({ home }) => [{ cwd: home }, {}]],
  ["windowsSandbox/readiness", () => [undefined]],
  ["externalAgentConfig/detect", ({ home }) => [{ cwds: [home], includeHome: true }]],
  ["externalAgentConfig/import/readHistories", () => [undefined]],
  ["fs/readFile", ({ home }) => [{ path: join(home, "config.toml") }]],
  ["fs/getMetadata", ({ home }) => [{ path: home }]],
  ["fs/readDirectory", ({ home }) => [{ path: home }]],
  ["fuzzyFileSearch", ({ home }) => [{ query: "config", roots: [home] }]],
];

const { values } = parseArgs({
  options: { versions: { type: "string" }, json: { type: "string" }, keep: { type: "boolean" } },
  strict: true,
});
const versions = values.versions
  ? values.versions
      .split(",")
      .map((v) => v.trim())
      .filter(Boolean)
  : VERSIONS;

ensureCodegenBuilt();
const codegen = await import(pathToFileURL(CODEGEN_ENTRY).href);
const ts = createRequire(join(ROOT, "package.json"))("typescript");

// The run is a function so that it starts after every declaration below (classes do not hoist).
async function main() {
  const rows = [];
  const exports = [];
  for (const version of versions) {
    const started = performance.now();
    log(`\n== codex ${version}`);
    const row = { version, results: {}, warnings: [], compile: {}, server: undefined, failures: [] };
    rows.push(row);
    const work = mkdtempSync(join(tmpdir(), `codegen-versions-${version}-`));
    try {
      const binary = install(version);
      const exported = codegen.exportCodexSchemas(binary);
      exports.push(exported);
      if (exported.codexVersion !== version) throw new Error(`the binary of ${version} reports ${exported.codexVersion}`);
      const schemasDir = exported.schemasDir;
      log(`  exported schemas to ${schemasDir}`);
      const outDir = join(work, "generated");
      const generated = codegen.generate({ schemasDir, command: `node tools/codegen-versions.mjs --versions ${version}` });
      codegen.writeGeneratedFiles(outDir, generated.files);
      for (const report of generated.reports) {
        row.results[report.flavor] = report.resultsByRule;
        for (const r of report.results) {
          if (r.resolvedBy !== "table" && (r.resolvedBy !== "convention" || r.how.startsWith("method name"))) {
            log(`  ${report.flavor} ${r.resolvedBy.padEnd(10)} ${r.method}: ${r.how}`);
          }
        }
      }
      row.warnings = generated.warnings;
      row.withoutTable = rulesWithoutTable(schemasDir, generated);
      for (const warning of generated.warnings) log(`  warning: ${warning}`);
      for (const resolution of ["NodeNext", "Bundler"]) {
        const errors = compile(work, resolution);
        row.compile[resolution] = errors.length === 0 ? "ok" : `${errors.length} errors`;
        for (const error of errors.slice(0, 5)) row.failures.push(`tsc ${resolution}: ${error}`);
        log(`  tsc strict ${resolution}: ${row.compile[resolution]}`);
      }
      const guessed = new Map(
        generated.reports[0].results.filter((r) => r.resolvedBy !== "convention" || r.how.startsWith("method name")).map((r) => [r.method, r.how]),
      );
      row.server = await checkRealServer(binary, version, outDir, work, guessed);
      row.failures.push(...row.server.failures);
    } catch (error) {
      row.failures.push(`aborted: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      if (values.keep) log(`  kept ${work} and the schemas`);
      else {
        rmSync(work, { recursive: true, force: true });
        for (const exported of exports.splice(0)) exported.dispose();
      }
    }
    for (const failure of row.failures) log(`  FAIL ${failure}`);
    log(`  ${Math.round((performance.now() - started) / 1000)} s`);
  }

  console.log(`\n${table(rows).join("\n")}`);
  if (values.json) writeFileSync(values.json, `${JSON.stringify(rows, null, 2)}\n`);
  process.exitCode = rows.some((row) => row.failures.length > 0) ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------

function log(line) {
  process.stderr.write(`${line}\n`);
}

/** `.codex-versions/<version>/`, installed from npm unless it already holds that version. */
function install(version) {
  const dir = join(CACHE, version);
  const manifest = join(dir, "node_modules", "@openai", "codex", "package.json");
  const installed = existsSync(manifest) ? JSON.parse(readFileSync(manifest, "utf8")).version : undefined;
  if (installed !== version) {
    log(`  npm install --prefix ${relative(ROOT, dir)} @openai/codex@${version}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "codex-version-cache", private: true })}\n`);
    execFileSync("npm", ["install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", `@openai/codex@${version}`], {
      stdio: ["ignore", "inherit", "inherit"],
    });
  }
  const binary = codegen.codexBinaryIn(join(dir, "node_modules"));
  if (!binary) throw new Error(`no codex binary in ${relative(ROOT, dir)}`);
  return binary;
}

/**
 * The same schemas with RESULT_TABLE emptied, as on a version the table does not know: what the
 * other rules find by themselves, and how many of those differ from the table's answer.
 */
function rulesWithoutTable(schemasDir, generated) {
  const bare = codegen.generate({ schemasDir, command: "-", include: ["types"], resultTable: {} });
  const summary = {};
  for (const report of bare.reports) {
    const truth = new Map(generated.reports.find((r) => r.flavor === report.flavor).results.map((r) => [r.method, r.definition]));
    const wrong = report.results.filter((r) => r.resolvedBy !== "unknown" && r.definition !== truth.get(r.method));
    summary[report.flavor] = { ...report.resultsByRule, wrong: wrong.map((r) => `${r.method} → ${r.definition} (table: ${truth.get(r.method)})`) };
    for (const w of summary[report.flavor].wrong) log(`  without the table, ${report.flavor}: WRONG ${w}`);
  }
  log(
    `  without the table: ${["stable", "experimental"].map((f) => `${f} ${summary[f].inferred} inferred, ${summary[f].unknown} unknown, ${summary[f].wrong.length} wrong`).join("; ")}`,
  );
  return summary;
}

/** Type-checks a small program against both flavors' output; returns tsc's messages. */
function compile(work, resolution) {
  writeFileSync(join(work, "package.json"), JSON.stringify({ type: "module", private: true }));
  const file = join(work, "check.ts");
  writeFileSync(
    file,
    `import type { ClientRequestMap, ClientRequestMethod, ServerNotification } from "./generated/stable/index.js";
import { CLIENT_REQUEST_METHODS, PROTOCOL_VERSION } from "./generated/stable/index.js";
import { loadValidators } from "./generated/stable/validators.js";
import { clientRequestResults } from "./generated/stable/validators/incoming.js";
import type { ClientRequestMap as ExperimentalMap } from "./generated/experimental/index.js";
import { loadValidators as loadExperimentalValidators } from "./generated/experimental/validators.js";

export const version: string = PROTOCOL_VERSION;
export const methods: readonly ClientRequestMethod[] = CLIENT_REQUEST_METHODS;
export type Results = { [M in ClientRequestMethod]: ClientRequestMap[M]["result"] };
export type GatewayRead = ExperimentalMap["account/gatewayOAuth/read"];

export function method(notification: ServerNotification): string {
  return notification.method;
}

export async function threadCount(value: unknown): Promise<number> {
  const [stable, experimental] = await Promise.all([loadValidators(), loadExperimentalValidators()]);
  if (!stable.clientRequestValidators["thread/list"].result(value)) return -1;
  const validate = clientRequestResults["thread/list"];
  if (!validate(value) || !experimental) return -1;
  const list: ClientRequestMap["thread/list"]["result"] = value;
  return list.data.length;
}
`,
  );
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: resolution === "NodeNext" ? ts.ModuleKind.NodeNext : ts.ModuleKind.ESNext,
    moduleResolution: resolution === "NodeNext" ? ts.ModuleResolutionKind.NodeNext : ts.ModuleResolutionKind.Bundler,
    verbatimModuleSyntax: true,
    skipLibCheck: false,
    types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${relative(work, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1} ` : "";
    return `${where}${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}

/** Runs `codex app-server` of this version and checks its answers with this version's validators. */
async function checkRealServer(binary, version, outDir, work, guessed) {
  const incoming = await import(pathToFileURL(join(outDir, "stable", "validators", "incoming.js")).href);
  const outgoing = await import(pathToFileURL(join(outDir, "stable", "validators", "outgoing.js")).href);
  const { CLIENT_REQUEST_METHODS } = await import(pathToFileURL(join(outDir, "stable", "methods.js")).href);
  const home = join(work, "server-home");
  mkdirSync(home, { recursive: true });
  const port = await unusedLoopbackPort();
  writeFileSync(
    join(home, "config.toml"),
    [
      `model = "mock-model"`,
      `model_provider = "mock"`,
      `[model_providers.mock]`,
      `name = "mock"`,
      `base_url = "http://127.0.0.1:${port}/v1"`,
      `wire_api = "responses"`,
      `request_max_retries = 0`,
      `stream_max_retries = 0`,
      `supports_websockets = false`,
      ``,
    ].join("\n"),
  );
  const server = new AppServer(binary, home);
  const summary = { valid: 0, invalid: 0, errorReplies: 0, skipped: 0, notifications: 0, failures: [], errors: [], skips: [], guessedValid: [] };
  const checkResult = (method, reply) => {
    if (reply.error) {
      summary.errorReplies++;
      summary.errors.push(`${method}: ${reply.error.code} ${reply.error.message}`);
      return;
    }
    const validate = incoming.clientRequestResults[method];
    if (validate(reply.result)) {
      summary.valid++;
      if (guessed.has(method)) summary.guessedValid.push(`${method} (${guessed.get(method)})`);
    } else {
      summary.invalid++;
      summary.failures.push(`real server: ${method} result fails its validator: ${JSON.stringify(validate.errors).slice(0, 300)}`);
    }
  };
  try {
    const init = await server.request("initialize", {
      clientInfo: { name: "codex_rpc_versions", title: "codex-rpc codegen-versions", version: "0.0.0" },
      capabilities: { experimentalApi: true },
    });
    checkResult("initialize", init);
    const agent = init.result?.userAgent;
    if (typeof agent === "string" && !agent.includes(`/${version}`)) summary.failures.push(`real server: userAgent "${agent}" is not ${version}`);
    server.notify("initialized");
    for (const [method, candidates] of READS.slice(1)) {
      if (!CLIENT_REQUEST_METHODS.includes(method)) continue;
      const options = candidates({ home });
      const fits = options.findIndex((params) => outgoing.clientRequestParams[method](params));
      if (fits < 0) {
        summary.skipped++;
        summary.skips.push(`${method}: no params candidate fits ${version}`);
        continue;
      }
      checkResult(method, await server.request(method, options[fits]));
    }
    for (const { method, params } of server.notifications) {
      const validate = incoming.serverNotificationParams[method];
      if (!validate) summary.failures.push(`real server: unknown notification ${method}`);
      else if (!validate(params))
        summary.failures.push(`real server: ${method} notification fails its validator: ${JSON.stringify(validate.errors).slice(0, 300)}`);
      else summary.notifications++;
    }
    if (server.badLines.length > 0) summary.failures.push(`real server: ${server.badLines.length} stdout line(s) that are not protocol messages`);
  } catch (error) {
    summary.failures.push(`real server: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await server.close();
  }
  log(
    `  real server: ${summary.valid} results valid, ${summary.invalid} invalid, ${summary.errorReplies} error replies, ` +
      `${summary.skipped} skipped; ${summary.notifications} notifications valid`,
  );
  if (summary.guessedValid.length > 0) log(`  results not found by XParams → XResponse, confirmed by the server: ${summary.guessedValid.join(", ")}`);
  for (const line of [...summary.errors, ...summary.skips]) log(`    ${line}`);
  return summary;
}

/** Just enough line-delimited JSON-RPC to talk to `codex app-server` over stdio. */
class AppServer {
  notifications = [];
  badLines = [];
  #pending = new Map();
  #nextId = 1;
  #partial = "";
  #stderr = [];
  #exited;

  constructor(binary, home) {
    this.child = spawn(binary, ["app-server"], {
      cwd: home,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, CODEX_HOME: home, NO_COLOR: "1" },
      stdio: ["pipe", "pipe", "pipe"],
      // Its own process group, so that it and whatever it starts end together.
      detached: process.platform !== "win32",
    });
    this.child.stdout.setEncoding("utf8");
    this.child.stderr.setEncoding("utf8");
    this.child.stdout.on("data", (chunk) => this.#onStdout(chunk));
    this.child.stderr.on("data", (chunk) => {
      this.#stderr.push(...chunk.split("\n"));
      this.#stderr.splice(0, Math.max(0, this.#stderr.length - 20)); // the last lines are enough to explain an exit
    });
    this.child.stdin.on("error", () => undefined);
    this.#exited = new Promise((resolve) =>
      this.child.once("exit", (code, signal) => {
        for (const { reject, timer } of this.#pending.values()) {
          clearTimeout(timer);
          reject(new Error(`codex app-server exited (${code ?? signal}): ${this.#stderr.join("\n").slice(-800)}`));
        }
        this.#pending.clear();
        resolve();
      }),
    );
  }

  request(method, params, timeoutMs = 15_000) {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`${method}: no reply within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, { resolve, reject, timer });
      this.child.stdin.write(`${JSON.stringify(params === undefined ? { id, method } : { id, method, params })}\n`);
    });
  }

  notify(method) {
    this.child.stdin.write(`${JSON.stringify({ method })}\n`);
  }

  async close() {
    this.child.stdin.end();
    this.#signal("SIGTERM");
    const timer = setTimeout(() => this.#signal("SIGKILL"), 3_000);
    await this.#exited;
    clearTimeout(timer);
  }

  #signal(signal) {
    try {
      if (process.platform === "win32") this.child.kill(signal);
      else process.kill(-this.child.pid, signal);
    } catch {
      // already gone
    }
  }

  #onStdout(chunk) {
    const lines = (this.#partial + chunk).split("\n");
    this.#partial = lines.pop() ?? "";
    for (const line of lines) {
      if (line.trim() === "") continue;
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        this.badLines.push(line);
        continue;
      }
      if (typeof message.method === "string") {
        // A server request gets -32601 (nothing here handles one); both kinds are kept for checking.
        if ("id" in message) this.child.stdin.write(`${JSON.stringify({ id: message.id, error: { code: -32601, message: "not handled" } })}\n`);
        else this.notifications.push({ method: message.method, params: message.params });
        continue;
      }
      const pending = this.#pending.get(message.id);
      if (!pending) {
        this.badLines.push(line);
        continue;
      }
      this.#pending.delete(message.id);
      clearTimeout(pending.timer);
      pending.resolve(message);
    }
  }
}

function unusedLoopbackPort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The markdown table: rule counts as stable / experimental. */
function table(rows) {
  const header = [
    "version",
    ...RULES.map((r) => r.replace("-", " ")),
    "without the table: inferred / unknown / wrong",
    "tsc nodenext",
    "tsc bundler",
    "real server (stable validators)",
  ];
  const lines = [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`];
  for (const row of rows) {
    const counts = RULES.map((rule) => ["stable", "experimental"].map((f) => row.results[f]?.[rule] ?? "–").join(" / "));
    const s = row.server;
    const server = s
      ? `${s.valid} results valid, ${s.invalid} invalid${s.errorReplies ? `, ${s.errorReplies} error replies` : ""}; ${s.notifications} notifications valid`
      : "not run";
    const mark = row.failures.length > 0 ? ` **(${row.failures.length} failures)**` : "";
    const bare = row.withoutTable
      ? ["stable", "experimental"]
          .map((f) => `${row.withoutTable[f].inferred} / ${row.withoutTable[f].unknown} / ${row.withoutTable[f].wrong.length}`)
          .join(" · ")
      : "–";
    lines.push(`| ${row.version} | ${counts.join(" | ")} | ${bare} | ${row.compile.NodeNext ?? "–"} | ${row.compile.Bundler ?? "–"} | ${server}${mark} |`);
  }
  return lines;
}

/** Builds packages/codegen when dist/ is missing or older than src/. */
function ensureCodegenBuilt() {
  const src = join(CODEGEN_DIR, "src");
  // Recursive: the sources live in stage folders, whose own mtime does not change when a file is edited.
  const newest = Math.max(...readdirSync(src, { recursive: true }).map((f) => statSync(join(src, f)).mtimeMs));
  if (existsSync(CODEGEN_ENTRY) && statSync(CODEGEN_ENTRY).mtimeMs >= newest) return;
  log("packages/codegen/dist is missing or older than src: building it (tsc -p tsconfig.build.json)");
  const tsc = createRequire(join(CODEGEN_DIR, "package.json")).resolve("typescript/bin/tsc");
  const build = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: CODEGEN_DIR, stdio: "inherit" });
  if (build.status !== 0) throw new Error("could not build packages/codegen; run `npx -y pnpm@12.21.0 --filter @codex-rpc/codegen build`");
}

await main();
