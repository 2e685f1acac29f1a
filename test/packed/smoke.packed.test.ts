// The pack-and-install smoke test: every package packed and published to a local registry (the
// project's global setup), installed with `npm install` into fresh projects outside the workspace,
// and used there as a user would: a real codex turn against the testing kit's mock model on Node 20,
// Node 22 (.mjs, and .ts by type stripping), Deno (npm: specifiers, and node_modules), Bun; `tsc`
// under nodenext and bundler with TypeScript 5.4 and the newest, `skipLibCheck: false`; a consumer
// on the lowest rxjs the packages accept and one on another patch than ours, where `Observable`
// stays assignable and `instanceof Observable` holds. Prints the runtime × consumer kind × result
// table. Each consumer is installed once and reused.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PINNED_CODEX_VERSION, pinnedCodexBinary } from "../support/pinned-codex.js";
import { runtimeBinary } from "../support/runtimes.js";
import { type Consumer, createConsumer, registryEnv } from "./consumer.js";
import { turnScript } from "./turn-script.js";

const VERSION = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "packages", "core", "package.json"), "utf8")).version as string;
const OUR_RXJS = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "packages", "core", "package.json"), "utf8")).devDependencies.rxjs as string;
const LOWEST_RXJS = (
  JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "packages", "core", "package.json"), "utf8")).peerDependencies.rxjs as string
).replace(/^\^/, "");
const OTHER_PATCH_RXJS = "7.8.1";
const ours = (names: string[]) => Object.fromEntries(names.map((name) => [`@codex-rpc/${name}`, VERSION]));
const TIMEOUT = 180_000;

const rows: [runtime: string, kind: string, result: string][] = [];
let main: Consumer;
const extra: Consumer[] = [];
const dirs: string[] = [];

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly seconds: number;
}

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Run {
  const started = Date.now();
  const result = spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    timeout: TIMEOUT - 10_000,
    env: { ...process.env, ...registryEnv(), CODEX_BIN: pinnedCodexBinary(), ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, seconds: (Date.now() - started) / 1000 };
}

/** What a runtime binary says to `--version` (first line). */
const versionOf = (binary: string) => spawnSync(binary, ["--version"], { encoding: "utf8" }).stdout.trim().split("\n")[0] ?? "";

/** Records the row and checks the turn's JSON line. */
function expectTurn(runtime: string, kind: string, result: Run): void {
  const line = result.stdout.trim().split("\n").pop() ?? "";
  let parsed: { finalText?: string; streamed?: string; instanceofObservable?: boolean } = {};
  try {
    parsed = JSON.parse(line);
  } catch {
    // reported below
  }
  const ok =
    result.status === 0 &&
    parsed.finalText === "Packed, installed and answering." &&
    parsed.streamed === parsed.finalText &&
    parsed.instanceofObservable === true;
  rows.push([runtime, kind, ok ? `ok: a real turn, text streamed, instanceof Observable (${result.seconds.toFixed(1)} s)` : `FAILED (exit ${result.status})`]);
  if (!ok) throw new Error(`${runtime} ${kind}: exit ${result.status}\nstdout: ${result.stdout}\nstderr: ${result.stderr.slice(-3000)}`);
}

function expectTsc(runtime: string, kind: string, result: Run): void {
  rows.push([runtime, kind, result.status === 0 ? `ok: no errors (${result.seconds.toFixed(1)} s)` : "FAILED"]);
  if (result.status !== 0) throw new Error(`${kind}: ${result.stdout}${result.stderr}`);
}

const tsconfig = (moduleResolution: "nodenext" | "bundler", files: string[], extraOptions: Record<string, unknown> = {}) =>
  JSON.stringify(
    {
      compilerOptions: {
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        verbatimModuleSyntax: moduleResolution === "nodenext",
        module: moduleResolution === "nodenext" ? "nodenext" : "esnext",
        moduleResolution,
        target: "ES2022",
        lib: ["ES2022"],
        types: ["node"],
        skipLibCheck: false,
        noEmit: true,
        ...extraOptions,
      },
      files,
    },
    null,
    2,
  );

function tscVersion(consumer: Consumer, pkg: string): string {
  return JSON.parse(readFileSync(join(consumer.dir, "node_modules", pkg, "package.json"), "utf8")).version;
}

/** How many copies of rxjs npm installed (one: the consumer's, shared with the packages). */
function rxjsCopies(consumer: Consumer): number {
  let count = 0;
  const walk = (dir: string, depth: number) => {
    if (depth > 6) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      if (entry.name === "rxjs") count++;
      if (entry.name === "node_modules" || entry.name.startsWith("@") || depth > 0) walk(join(dir, entry.name), depth + 1);
    }
  };
  walk(join(consumer.dir, "node_modules"), 0);
  return count;
}

describe("pack-and-install smoke test (packages from the local registry, consumers outside the workspace)", () => {
  beforeAll(() => {
    const started = Date.now();
    main = createConsumer("main", {
      ...ours(["core", "stdio", "deno", "bun", "testing", "websocket"]),
      rxjs: OUR_RXJS,
      typescript: "latest",
      "typescript-5.4": "npm:typescript@~5.4.0",
      "@types/node": "^20.19.0",
    });
    writeFileSync(join(main.dir, "turn.mjs"), turnScript({ transport: "stdio", typed: false }));
    writeFileSync(join(main.dir, "turn.ts"), turnScript({ transport: "stdio", typed: true }));
    writeFileSync(join(main.dir, "turn-deno.mjs"), turnScript({ transport: "deno", typed: false }));
    writeFileSync(join(main.dir, "turn-bun.ts"), turnScript({ transport: "bun", typed: true }));
    // The websocket package's Node-only API, which `moduleResolution: bundler` sees only with the
    // `node` condition (customConditions).
    writeFileSync(
      join(main.dir, "websocket-node.ts"),
      'import { defaultControlSocketPath } from "@codex-rpc/websocket";\nexport const socket: string = defaultControlSocketPath();\n',
    );
    for (const resolution of ["nodenext", "bundler"] as const)
      writeFileSync(
        join(main.dir, `tsconfig.${resolution}.json`),
        tsconfig(resolution, ["turn.ts", "websocket-node.ts"], resolution === "bundler" ? { customConditions: ["node"] } : {}),
      );
    // A page's project, as Vite's template writes it: the DOM's lib, no Node types, no
    // ESNext.Disposable (the declarations bring the lib they need: a review found them failing here).
    writeFileSync(
      join(main.dir, "page.ts"),
      'import { CodexClient } from "@codex-rpc/core";\nimport { openRelayTransport } from "@codex-rpc/websocket";\nexport const open = async (url: string, token: string) => CodexClient.connect(await openRelayTransport({ url, token }));\n',
    );
    writeFileSync(join(main.dir, "tsconfig.browser.json"), tsconfig("bundler", ["page.ts"], { lib: ["ES2022", "DOM", "DOM.Iterable"], types: [] }));
    // A project with its own polyfill declarations of ESNext.Disposable's classes (a review found a
    // `/// <reference lib>` in the declarations clashing with them: Duplicate identifier).
    writeFileSync(
      join(main.dir, "polyfill.ts"),
      "declare global {\n  class SuppressedError extends Error { constructor(error: unknown, suppressed: unknown, message?: string); error: unknown; suppressed: unknown }\n  class DisposableStack { defer(onDispose: () => void): void; dispose(): void }\n}\nexport {};\n",
    );
    writeFileSync(
      join(main.dir, "tsconfig.polyfill.json"),
      tsconfig("bundler", ["polyfill.ts", "page.ts"], { target: "ES2020", lib: ["ES2020", "DOM"], types: [], skipLibCheck: true }),
    );
    console.log(`main consumer installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }, TIMEOUT);

  afterAll(() => {
    main?.remove();
    for (const consumer of extra) consumer.remove();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    const widths = [0, 1, 2].map((i) => Math.max(["runtime", "consumer kind", "result"][i]?.length ?? 0, ...rows.map((row) => row[i]?.length ?? 0)));
    const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(" | ")} |`;
    console.log(
      `\npack-and-install smoke test (@codex-rpc/* ${VERSION} from the local registry, codex ${PINNED_CODEX_VERSION}):\n${[
        line(["runtime", "consumer kind", "result"]),
        line(widths.map((w) => "-".repeat(w))),
        ...rows.map(line),
      ].join("\n")}\n`,
    );
  });

  it(
    "Node 20 (this Node) runs a turn from .mjs",
    () => {
      expectTurn(`node ${process.versions.node}`, ".mjs, npm install", run(process.execPath, ["turn.mjs"], main.dir));
    },
    TIMEOUT,
  );

  it(
    "Node 22 runs a turn from .mjs and from .ts (type stripping)",
    () => {
      const node22 = runtimeBinary("node22");
      const version = versionOf(node22).slice(1);
      expectTurn(`node ${version}`, ".mjs, npm install", run(node22, ["turn.mjs"], main.dir));
      expectTurn(`node ${version}`, ".ts (type stripping), npm install", run(node22, ["--disable-warning=ExperimentalWarning", "turn.ts"], main.dir));
    },
    TIMEOUT,
  );

  it(
    "Deno runs a turn through node_modules (npm install) and through npm: specifiers (no node_modules)",
    () => {
      const deno = runtimeBinary("deno");
      const version = versionOf(deno).split(" ")[1] ?? "";
      const denoDir = mkdtempSync(join(tmpdir(), "codex-rpc-deno-dir-"));
      dirs.push(denoDir);
      expectTurn(`deno ${version}`, "node_modules (npm install)", run(deno, ["run", "-A", "turn-deno.mjs"], main.dir, { DENO_DIR: denoDir, NO_COLOR: "1" }));
      const bare = mkdtempSync(join(tmpdir(), "codex-rpc-consumer-deno-npm-"));
      dirs.push(bare);
      mkdirSync(join(bare, "src"));
      writeFileSync(
        join(bare, "src", "turn.mjs"),
        turnScript({
          transport: "deno",
          typed: false,
          prefix: "npm:",
          versions: { "@codex-rpc/core": VERSION, "@codex-rpc/deno": VERSION, "@codex-rpc/testing": VERSION, rxjs: OUR_RXJS },
        }),
      );
      expectTurn(
        `deno ${version}`,
        "npm: specifiers (no package.json)",
        // Deno's minimum dependency age (24 h by default) would refuse versions published a minute ago.
        run(deno, ["run", "-A", "--no-config", "--minimum-dependency-age=0", "src/turn.mjs"], bare, { DENO_DIR: denoDir, NO_COLOR: "1" }),
      );
    },
    TIMEOUT,
  );

  it(
    "Bun runs a turn from .ts",
    () => {
      const bun = runtimeBinary("bun");
      expectTurn(`bun ${versionOf(bun)}`, ".ts, npm install", run(bun, ["turn-bun.ts"], main.dir));
    },
    TIMEOUT,
  );

  it(
    "tsc checks the consumer under nodenext and bundler (customConditions: node), and a page under bundler with the DOM's lib and no Node types (also with its own Disposable polyfill declarations), TypeScript 5.4 and the newest, skipLibCheck: false",
    () => {
      for (const pkg of ["typescript-5.4", "typescript"]) {
        const tsc = join(main.dir, "node_modules", pkg, "bin", "tsc");
        for (const resolution of ["nodenext", "bundler"])
          expectTsc(
            `tsc ${tscVersion(main, pkg)}`,
            `moduleResolution ${resolution}`,
            run(process.execPath, [tsc, "-p", `tsconfig.${resolution}.json`], main.dir),
          );
        expectTsc(
          `tsc ${tscVersion(main, pkg)}`,
          "a page: bundler, lib ES2022 + DOM, no Node types",
          run(process.execPath, [tsc, "-p", "tsconfig.browser.json"], main.dir),
        );
        expectTsc(
          `tsc ${tscVersion(main, pkg)}`,
          "a page with its own Disposable polyfill declarations (ES2020 + DOM)",
          run(process.execPath, [tsc, "-p", "tsconfig.polyfill.json"], main.dir),
        );
      }
    },
    TIMEOUT,
  );

  for (const [label, rxjs] of [
    ["the lowest rxjs the packages accept", LOWEST_RXJS],
    ["another rxjs patch than ours", OTHER_PATCH_RXJS],
  ] as const) {
    it(
      `a consumer on ${label} (${rxjs}): one rxjs copy, Observable assignable, instanceof holds, a real turn`,
      () => {
        const consumer = createConsumer(`rxjs-${rxjs}`, { ...ours(["core", "stdio", "testing"]), rxjs, typescript: "latest", "@types/node": "^20.19.0" });
        extra.push(consumer);
        writeFileSync(join(consumer.dir, "turn.mjs"), turnScript({ transport: "stdio", typed: false }));
        writeFileSync(join(consumer.dir, "turn.ts"), turnScript({ transport: "stdio", typed: true }));
        writeFileSync(join(consumer.dir, "tsconfig.json"), tsconfig("nodenext", ["turn.ts"]));
        const installed = JSON.parse(readFileSync(join(consumer.dir, "node_modules", "rxjs", "package.json"), "utf8")).version;
        expect(installed).toBe(rxjs);
        expect(rxjsCopies(consumer)).toBe(1);
        expectTsc(
          `rxjs ${rxjs}`,
          `tsc ${tscVersion(consumer, "typescript")} nodenext: const t: Observable<string> = turn.text$`,
          run(process.execPath, [join(consumer.dir, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], consumer.dir),
        );
        expectTurn(`rxjs ${rxjs}`, `node ${process.versions.node} .mjs`, run(process.execPath, ["turn.mjs"], consumer.dir));
      },
      TIMEOUT,
    );
  }
});
