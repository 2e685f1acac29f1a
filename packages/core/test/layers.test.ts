// The dependency rule of core, checked over its import graph (parsed with the TypeScript compiler,
// not grepped): imports only go down the layers, nothing imports in a circle, and nothing reaches
// for a runtime or a package other than rxjs and @codex-rpc/protocol. See "Layers" in the README.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
// By path: core's package.json does not list the private test-support package.
import { layerOf, layerViolations, type LayerRules } from "@codex-rpc/test-support/layer-violations.js";
import { factsOf, sourceFactsIn, type SourceFacts } from "@codex-rpc/test-support/source-imports.js";

const SOURCE_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "src");

/**
 * Each folder of src and its rank: a file may import files of its own folder and of folders of a
 * lower rank, never a higher one nor a sibling of the same rank. The files at the root of src are
 * the package's entries: they import anything, and nothing imports them.
 */
const LAYERS: Readonly<Record<string, number>> = {
  util: 0,
  errors: 1,
  framing: 2,
  transport: 3,
  rpc: 4,
  process: 4,
  session: 5,
  client: 6,
  testing: 7,
  ".": 8,
};

/** The packages core may import (and their subpaths). */
const ALLOWED_PACKAGES = ["rxjs", "@codex-rpc/protocol"];

/** Runtime globals core must not touch: it runs on every runtime and is given what it needs. */
const RUNTIME_GLOBALS = new Set([
  "Deno",
  "Bun",
  "process",
  "Buffer",
  "require",
  "module",
  "__dirname",
  "__filename",
  "global",
  "window",
  "document",
  "navigator",
  "self",
  "setImmediate",
  "localStorage",
  "location",
  "XMLHttpRequest",
]);

const RULES: LayerRules = { name: "core", layers: LAYERS, allowedPackages: ALLOWED_PACKAGES, runtimeModules: false };

/** One file read as core's are: imports and the runtime globals it names. */
function factsOfCore(file: string, text: string): SourceFacts {
  return factsOf(file, text, RUNTIME_GLOBALS);
}

function violations(sources: readonly SourceFacts[]): string[] {
  return layerViolations(sources, RULES);
}

function coreSources(): SourceFacts[] {
  // web-platform.d.ts declares what every runtime shares: not core's code.
  return sourceFactsIn(SOURCE_ROOT, { runtimeGlobals: RUNTIME_GLOBALS, skip: (path) => path.endsWith("web-platform.d.ts") });
}

describe("core's layers", () => {
  it("imports only downward, in no circle, and no runtime nor package besides rxjs and @codex-rpc/protocol", () => {
    const sources = coreSources();
    expect(sources.length).toBeGreaterThan(30);
    expect(violations(sources)).toEqual([]);
  });

  it("puts every source file in a layer folder or among the entries", () => {
    const folders = new Set(coreSources().map((source) => layerOf(source.file)));
    expect([...folders].filter((folder) => LAYERS[folder] === undefined)).toEqual([]);
  });

  it("reads every kind of import the compiler knows", () => {
    const facts = factsOfCore(
      "client/x.ts",
      `import a from "./a.js"; import type { B } from "../session/b.js"; export * from "../rpc/c.js"; export { d } from "./d.js"; const e = await import("../util/e.js");`,
    );
    expect(facts.imports).toEqual(["./a.js", "../session/b.js", "../rpc/c.js", "./d.js", "../util/e.js"]);
  });

  // The check itself, made to fail on purpose: each kind of violation is caught and named.
  it("catches an upward import, a sibling import, a cycle, a runtime and a foreign package", () => {
    const problems = violations([
      factsOfCore("util/low.ts", `import { Client } from "../client/high.js";`),
      factsOfCore("client/high.ts", `import { low } from "../util/low.js"; import { spawn } from "node:child_process"; import lodash from "lodash";`),
      factsOfCore("rpc/a.ts", `import { b } from "../process/b.js";`),
      factsOfCore(
        "process/b.ts",
        `export const b = Deno.pid + process.pid; const ok = { process: 1 }; ok.process; const f = (window: number) => window; declare global { interface X {} }`,
      ),
      factsOfCore("util/g.ts", `export const g = global.setTimeout;`),
      factsOfCore("session/c.ts", `import { d } from "./d.js";`),
      factsOfCore("session/d.ts", `import { c } from "./c.js";`),
    ]);
    expect(problems).toEqual([
      "util/low.ts (util, layer 0) imports client/high.ts (client, layer 6): upward",
      'client/high.ts imports the runtime module "node:child_process"',
      'client/high.ts imports the package "lodash" (core may import only rxjs and @codex-rpc/protocol)',
      "rpc/a.ts (rpc) imports process/b.ts (process): sibling layers of rank 4 stay apart",
      "process/b.ts uses the runtime global `Deno`",
      "process/b.ts uses the runtime global `process`",
      "util/g.ts uses the runtime global `global`",
      "import cycle: client/high.ts → util/low.ts → client/high.ts",
      "import cycle: session/c.ts → session/d.ts → session/c.ts",
    ]);
  });
});
