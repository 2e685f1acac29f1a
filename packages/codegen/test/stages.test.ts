// codegen's stages, checked over its import graph (parsed with the TypeScript compiler, not
// grepped): imports only go down the stages, nothing imports in a circle, and the only package is
// ajv. See "Stages" in the README.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { layerOf, layerViolations, type LayerRules } from "@codex-rpc/test-support/layer-violations.js";
import { factsOf, sourceFactsIn } from "@codex-rpc/test-support/source-imports.js";

const SOURCE_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "src");

/**
 * Each stage folder and its rank: a file imports its own folder and lower ranks only. emit and print
 * share a rank and never meet: emit makes nodes, print turns nodes into text, and the pipeline at the
 * root (generate.ts) hands one's output to the other.
 */
const LAYERS: Readonly<Record<string, number>> = {
  util: 0,
  read: 1,
  analyse: 2,
  nodes: 3,
  emit: 4,
  print: 4,
  write: 5,
  ".": 6,
};

const RULES: LayerRules = { name: "codegen", layers: LAYERS, allowedPackages: ["ajv"], runtimeModules: true };

describe("codegen's stages", () => {
  it("imports only downward, in no circle, and no package besides ajv", () => {
    const sources = sourceFactsIn(SOURCE_ROOT);
    expect(sources.length).toBeGreaterThan(30);
    expect(layerViolations(sources, RULES)).toEqual([]);
  });

  it("puts every source file in a stage folder or among the entries", () => {
    const folders = new Set(sourceFactsIn(SOURCE_ROOT).map((source) => layerOf(source.file)));
    expect([...folders].filter((folder) => LAYERS[folder] === undefined)).toEqual([]);
  });

  // The check itself, made to fail on purpose: each kind of violation is caught and named.
  it("catches an upward import, emit and print meeting, a cycle, an entry imported and a foreign package", () => {
    const problems = layerViolations(
      [
        factsOf("read/schema.ts", `import { methods } from "../analyse/methods.js";`),
        factsOf("analyse/methods.ts", `import { schema } from "../read/schema.js"; import { readFileSync } from "node:fs";`),
        factsOf("emit/modules.ts", `import { print } from "../print/printer.js"; import ts from "typescript";`),
        factsOf("print/printer.ts", `import type { Module } from "../nodes/module.js"; import { generate } from "../generate.js";`),
        factsOf("nodes/module.ts", ``),
        factsOf("generate.ts", `import { emit } from "./emit/modules.js";`),
      ],
      RULES,
    );
    expect(problems).toEqual([
      "read/schema.ts (read, layer 1) imports analyse/methods.ts (analyse, layer 2): upward",
      "emit/modules.ts (emit) imports print/printer.ts (print): sibling layers of rank 4 stay apart",
      'emit/modules.ts imports the package "typescript" (codegen may import only ajv)',
      "print/printer.ts imports the entry generate.ts: entries are the top, nothing imports them",
      "import cycle: analyse/methods.ts → read/schema.ts → analyse/methods.ts",
      "import cycle: emit/modules.ts → print/printer.ts → generate.ts → emit/modules.ts",
    ]);
  });
});
