import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";

export interface ParityDifference {
  readonly direction: "ours → codex" | "codex → ours";
  /** The innermost property the compiler names, when it names one. */
  readonly property: string | undefined;
  /** What the innermost incompatibility is (see classify()). */
  readonly kind: string;
  /** The compiler's own words, innermost line last. */
  readonly message: string;
}

export interface ParityResult {
  /** Type names exported by codex's own generate-ts output that ours also exports, with where theirs lives. */
  readonly checked: readonly { readonly name: string; readonly theirs: string }[];
  /** Checks that failed: name → why, one entry per direction that failed. */
  readonly differing: ReadonlyMap<string, ParityDifference[]>;
  /**
   * Names that pass once codex's `bigint`s are read as `number` (ts-rs writes some 64-bit integers
   * as `bigint`; JSON.parse yields numbers, and the issue asks for `number`).
   */
  readonly bigintOnly: readonly string[];
  /** Codex's names we do not export (not in the JSON Schemas at all). */
  readonly onlyTheirs: readonly string[];
}

/**
 * Writes a type-level test that assigns each of our types to codex's same-named type and back
 * (mutual assignability), compiles it with `tsc --strict`, and reports which names fail.
 */
export function checkParity(options: { oursTypesFile: string; theirsDir: string; schemaBundle: string }): ParityResult {
  const ours = new Set([...readFileSync(options.oursTypesFile, "utf8").matchAll(/^export type (\w+)/gm)].map((m) => m[1] as string));
  const theirs: { name: string; module: "root" | "v2" }[] = [];
  for (const [module, index] of [
    ["root", "index.ts"],
    ["v2", "v2/index.ts"],
  ] as const) {
    const text = readFileSync(join(options.theirsDir, index), "utf8");
    for (const match of text.matchAll(/^export type \{ (\w+) \}/gm)) theirs.push({ name: match[1] as string, module });
  }
  // Where codex exports a name twice (root and v2), compare with the twin from the namespace our
  // definition came from: the other one is a different type the JSON Schemas do not export.
  const bundle = JSON.parse(readFileSync(options.schemaBundle, "utf8")) as { definitions: Record<string, unknown> & { v2: Record<string, unknown> } };
  const twice = new Set(theirs.filter((t) => t.module === "v2" && theirs.some((u) => u.module === "root" && u.name === t.name)).map((t) => t.name));
  const checked = theirs.filter((t) => ours.has(t.name) && (!twice.has(t.name) || (t.module === "v2") === t.name in bundle.definitions.v2));
  const onlyTheirs = [...new Set(theirs.filter((t) => !ours.has(t.name)).map((t) => t.name))].sort();

  // First the strict check; then, for the names that fail it, the check with codex's bigints read
  // as numbers (running that on everything makes tsc give up on the deepest unions).
  const strict = compileChecks(options, checked, false);
  const strictlyDiffering = new Set(strict.keys());
  const differing = compileChecks(
    options,
    checked.filter((c) => strictlyDiffering.has(c.name)),
    true,
  );
  for (const [name, differences] of differing) {
    // Where tsc cannot expand Numberize (the largest unions), the strict result stands.
    if (differences.some((d) => d.message.includes("excessively deep"))) differing.set(name, strict.get(name) ?? []);
  }
  const bigintOnly = [...strictlyDiffering].filter((name) => !differing.has(name)).sort();
  return { checked: checked.map((c) => ({ name: c.name, theirs: c.module })), differing, bigintOnly, onlyTheirs };
}

/** Compiles one assignment each way per name; returns the names that fail, with why. */
function compileChecks(
  options: { oursTypesFile: string; theirsDir: string },
  checked: readonly { name: string; module: "root" | "v2" }[],
  numberized: boolean,
): Map<string, ParityDifference[]> {
  const lines = [
    `import type * as Ours from ${JSON.stringify(options.oursTypesFile.replace(/\.d\.ts$/, ".js"))};`,
    `import type * as Root from ${JSON.stringify(join(options.theirsDir, "index"))};`,
    `import type * as V2 from ${JSON.stringify(join(options.theirsDir, "v2", "index"))};`,
    "type Numberize<T> = T extends bigint ? number : T extends object ? { [K in keyof T]: Numberize<T[K]> } : T;",
  ];
  const lineOwner: { name: string; direction: ParityDifference["direction"] }[] = [];
  for (const { name, module } of checked) {
    const codexType = `${module === "root" ? "Root" : "V2"}.${name}`;
    const theirsRef = numberized ? `Numberize<${codexType}>` : codexType;
    lines.push(`export function ${module}_${name}_ours_to_theirs(value: Ours.${name}): ${theirsRef} { return value; }`);
    lineOwner[lines.length] = { name, direction: "ours → codex" };
    lines.push(`export function ${module}_${name}_theirs_to_ours(value: ${theirsRef}): Ours.${name} { return value; }`);
    lineOwner[lines.length] = { name, direction: "codex → ours" };
  }
  const dir = mkdtempSync(join(tmpdir(), "codex-rpc-parity-"));
  try {
    const file = join(dir, "parity.ts");
    writeFileSync(file, `${lines.join("\n")}\n`);
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      skipLibCheck: false,
      types: [],
    });
    const differing = new Map<string, ParityDifference[]>();
    for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
      if (diagnostic.file?.fileName !== file || diagnostic.start === undefined) {
        throw new Error(`parity check failed to compile: ${diagnostic.file?.fileName ?? ""}: ${message}`);
      }
      const line = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1;
      const owner = lineOwner[line];
      if (!owner) throw new Error(`parity check: unexpected error on line ${line}: ${message}`);
      differing.set(owner.name, [...(differing.get(owner.name) ?? []), classify(owner.direction, message)]);
    }
    return differing;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Names the innermost incompatibility of a failed assignment, which is where the two generators
 * disagree (outer lines only repeat it for the types that contain it).
 */
function classify(direction: ParityDifference["direction"], message: string): ParityDifference {
  const lines = message.split("\n").map((line) => line.trim());
  const innermost = lines[lines.length - 1] ?? "";
  const property = [...message.matchAll(/Types of property '([^']+)' are incompatible|Property '([^']+)' is (?:optional|missing)/g)]
    .map((m) => m[1] ?? m[2])
    .pop();
  const oursToCodex = direction === "ours → codex";
  let kind = "other";
  if (/^Type 'undefined' is not assignable/.test(innermost) || /is optional in type .* but required in type/.test(innermost)) {
    kind = oursToCodex ? "optional in ours, required in codex" : "optional in codex, required in ours";
  } else if (/^Type 'null' is not assignable to type '.*undefined'/.test(innermost)) {
    kind = oursToCodex ? "null in ours, omitted in codex" : "null in codex, omitted in ours";
  } else if (/^Property '[^']+' is missing in type/.test(innermost)) {
    kind = oursToCodex ? "property only in codex" : "property only in ours";
  }
  return { direction, property, kind, message: lines.join("\n") };
}
