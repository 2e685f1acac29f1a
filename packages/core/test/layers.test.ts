// The dependency rule of core, checked over its import graph (parsed with the TypeScript compiler,
// not grepped): imports only go down the layers, nothing imports in a circle, and nothing reaches
// for a runtime or a package other than rxjs and @codex-rpc/protocol. See "Layers" in the README.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

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
const RUNTIME_GLOBALS = new Set(["Deno", "Bun", "process", "Buffer", "require", "module", "__dirname", "__filename", "global", "window", "document", "navigator", "self", "setImmediate", "localStorage", "location", "XMLHttpRequest"]);

/** One source file: its path under src and what it imports (relative specifiers unresolved). */
interface SourceFacts {
  readonly file: string;
  readonly imports: readonly string[];
  /** Free identifiers that name a runtime global. */
  readonly runtimeGlobals: readonly string[];
}

function layerOf(file: string): string {
  return file.includes("/") ? file.slice(0, file.indexOf("/")) : ".";
}

/** What is wrong with a set of source files: one line per upward import, cycle, runtime or foreign package. */
function violations(sources: readonly SourceFacts[]): string[] {
  const problems: string[] = [];
  const files = new Set(sources.map((source) => source.file));
  const edges = new Map<string, string[]>();
  for (const source of sources) {
    const from = layerOf(source.file);
    const rankFrom = LAYERS[from];
    if (rankFrom === undefined) problems.push(`${source.file}: the folder "${from}" is no layer (add it to LAYERS and the README)`);
    const targets: string[] = [];
    for (const specifier of source.imports) {
      if (specifier.startsWith(".")) {
        const target = resolveRelative(source.file, specifier, files);
        if (target === undefined) {
          problems.push(`${source.file}: "${specifier}" resolves to no file of src`);
          continue;
        }
        targets.push(target);
        const to = layerOf(target);
        const rankTo = LAYERS[to];
        if (rankFrom === undefined || rankTo === undefined || from === to) continue;
        if (to === ".") problems.push(`${source.file} imports the entry ${target}: entries are the top, nothing imports them`);
        else if (rankTo > rankFrom) problems.push(`${source.file} (${from}, layer ${rankFrom}) imports ${target} (${to}, layer ${rankTo}): upward`);
        else if (rankTo === rankFrom) problems.push(`${source.file} (${from}) imports ${target} (${to}): sibling layers of rank ${rankTo} stay apart`);
      } else if (specifier.startsWith("node:") || isNodeBuiltin(specifier)) {
        problems.push(`${source.file} imports the runtime module "${specifier}"`);
      } else if (!ALLOWED_PACKAGES.some((name) => specifier === name || specifier.startsWith(`${name}/`))) {
        problems.push(`${source.file} imports the package "${specifier}" (core may import only ${ALLOWED_PACKAGES.join(" and ")})`);
      }
    }
    edges.set(source.file, targets);
    for (const name of source.runtimeGlobals) problems.push(`${source.file} uses the runtime global \`${name}\``);
  }
  for (const cycle of cyclesOf(edges)) problems.push(`import cycle: ${cycle.join(" → ")}`);
  return problems;
}

function resolveRelative(file: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  const base = join(dirname(file), specifier).replace(/\\/g, "/");
  const stem = base.replace(/\.(js|ts|mjs|mts)$/, "");
  for (const candidate of [`${stem}.ts`, `${stem}.d.ts`, `${stem}/index.ts`]) if (files.has(candidate)) return candidate;
  return undefined;
}

function isNodeBuiltin(specifier: string): boolean {
  const name = specifier.split("/")[0]!;
  return ["fs", "path", "os", "child_process", "crypto", "events", "stream", "url", "util", "net", "http", "https", "worker_threads", "process", "buffer", "module", "tty", "readline", "zlib"].includes(name);
}

/** Every elementary circle in the graph, each reported once (from its smallest file). */
function cyclesOf(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, "open");
    stack.push(file);
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === "open") {
        const cycle = stack.slice(stack.indexOf(next));
        const key = [...cycle].sort().join("|");
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push([...cycle, next]);
        }
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of [...edges.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

/** Reads one file: its imports (static, `export … from`, `import()`, `import type`) and the runtime globals it names. */
function factsOf(file: string, text: string): SourceFacts {
  const imports = ts.preProcessFile(text, true, true).importedFiles.map((reference) => reference.fileName);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  // A name the file declares itself (a parameter called `window`, a local `process`) is not the global.
  const declared = new Set<string>();
  const runtimeGlobals = new Set<string>();
  const collect = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && isDeclaredName(node)) declared.add(node.text);
    ts.forEachChild(node, collect);
  };
  const walk = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && RUNTIME_GLOBALS.has(node.text) && !declared.has(node.text) && isFreeReference(node)) runtimeGlobals.add(node.text);
    ts.forEachChild(node, walk);
  };
  collect(source);
  walk(source);
  return { file, imports, runtimeGlobals: [...runtimeGlobals] };
}

/** An identifier that reads a variable (not a property name, a declaration, a type member or an import name). */
function isFreeReference(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
  if (ts.isQualifiedName(parent) && parent.right === node) return false;
  if ((ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent) || ts.isPropertySignature(parent) || ts.isMethodDeclaration(parent) || ts.isMethodSignature(parent)) && parent.name === node) return false;
  if (isDeclaredName(node) || ts.isExportSpecifier(parent)) return false;
  return true;
}

/** The name a variable, parameter, function, class or import declares. */
function isDeclaredName(node: ts.Identifier): boolean {
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isParameter(parent) || ts.isFunctionDeclaration(parent) || ts.isClassDeclaration(parent) || ts.isBindingElement(parent)) && parent.name === node) return true;
  return ts.isImportSpecifier(parent) || ts.isImportClause(parent) || ts.isNamespaceImport(parent);
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

function coreSources(): SourceFacts[] {
  return sourceFiles(SOURCE_ROOT)
    .filter((path) => !path.endsWith("web-platform.d.ts")) // the declarations of what every runtime shares
    .map((path) => factsOf(relative(SOURCE_ROOT, path).replace(/\\/g, "/"), readFileSync(path, "utf8")));
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
    const facts = factsOf(
      "client/x.ts",
      `import a from "./a.js"; import type { B } from "../session/b.js"; export * from "../rpc/c.js"; export { d } from "./d.js"; const e = await import("../util/e.js");`,
    );
    expect(facts.imports).toEqual(["./a.js", "../session/b.js", "../rpc/c.js", "./d.js", "../util/e.js"]);
  });

  // The check itself, made to fail on purpose: each kind of violation is caught and named.
  it("catches an upward import, a sibling import, a cycle, a runtime and a foreign package", () => {
    const problems = violations([
      factsOf("util/low.ts", `import { Client } from "../client/high.js";`),
      factsOf("client/high.ts", `import { low } from "../util/low.js"; import { spawn } from "node:child_process"; import lodash from "lodash";`),
      factsOf("rpc/a.ts", `import { b } from "../process/b.js";`),
      factsOf("process/b.ts", `export const b = Deno.pid + process.pid; const ok = { process: 1 }; ok.process; const f = (window: number) => window;`),
      factsOf("session/c.ts", `import { d } from "./d.js";`),
      factsOf("session/d.ts", `import { c } from "./c.js";`),
    ]);
    expect(problems).toEqual([
      "util/low.ts (util, layer 0) imports client/high.ts (client, layer 6): upward",
      'client/high.ts imports the runtime module "node:child_process"',
      'client/high.ts imports the package "lodash" (core may import only rxjs and @codex-rpc/protocol)',
      "rpc/a.ts (rpc) imports process/b.ts (process): sibling layers of rank 4 stay apart",
      "process/b.ts uses the runtime global `Deno`",
      "process/b.ts uses the runtime global `process`",
      "import cycle: client/high.ts → util/low.ts → client/high.ts",
      "import cycle: session/c.ts → session/d.ts → session/c.ts",
    ]);
  });
});
