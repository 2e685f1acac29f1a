// The dependency rule of a package whose src is split into ranked folders: imports only go down the
// ranks, nothing imports in a circle, and nothing reaches for a package (or a runtime) it may not.
// core's and codegen's layer tests each give their own table; see "Layers" / "Stages" in their READMEs.
import { dirname, join } from "node:path";
import type { SourceFacts } from "./source-imports.js";

export interface LayerRules {
  /** The package's name in messages ("core may import only …"). */
  readonly name: string;
  /**
   * Each folder of src and its rank: a file may import files of its own folder and of folders of a
   * lower rank, never a higher one nor a sibling of the same rank. `"."` is the files at the root of
   * src, the package's entries: they import anything, and nothing below imports them.
   */
  readonly layers: Readonly<Record<string, number>>;
  /** The packages src may import (and their subpaths). */
  readonly allowedPackages: readonly string[];
  /** Whether `node:` modules and Node's builtins may be imported. */
  readonly runtimeModules: boolean;
}

export function layerOf(file: string): string {
  return file.includes("/") ? file.slice(0, file.indexOf("/")) : ".";
}

/** What is wrong with a set of source files: one line per upward import, cycle, runtime or foreign package. */
export function layerViolations(sources: readonly SourceFacts[], rules: LayerRules): string[] {
  const { layers } = rules;
  const problems: string[] = [];
  const files = new Set(sources.map((source) => source.file));
  const edges = new Map<string, string[]>();
  for (const source of sources) {
    const from = layerOf(source.file);
    const rankFrom = layers[from];
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
        const rankTo = layers[to];
        if (rankFrom === undefined || rankTo === undefined || from === to) continue;
        if (to === ".") problems.push(`${source.file} imports the entry ${target}: entries are the top, nothing imports them`);
        else if (rankTo > rankFrom) problems.push(`${source.file} (${from}, layer ${rankFrom}) imports ${target} (${to}, layer ${rankTo}): upward`);
        else if (rankTo === rankFrom) problems.push(`${source.file} (${from}) imports ${target} (${to}): sibling layers of rank ${rankTo} stay apart`);
      } else if (specifier.startsWith("node:") || isNodeBuiltin(specifier)) {
        if (!rules.runtimeModules) problems.push(`${source.file} imports the runtime module "${specifier}"`);
      } else if (!rules.allowedPackages.some((name) => specifier === name || specifier.startsWith(`${name}/`))) {
        problems.push(`${source.file} imports the package "${specifier}" (${rules.name} may import only ${rules.allowedPackages.join(" and ")})`);
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
  return [
    "fs",
    "path",
    "os",
    "child_process",
    "crypto",
    "events",
    "stream",
    "url",
    "util",
    "net",
    "http",
    "https",
    "worker_threads",
    "process",
    "buffer",
    "module",
    "tty",
    "readline",
    "zlib",
  ].includes(name);
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
