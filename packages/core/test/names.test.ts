// The naming rules of core's public surface (see "Names" in the README), checked over the types
// the TypeScript compiler sees, not by grep: every Observable property ends in `$` and nothing
// else does, and no export of core shares a name with an export of the protocol package.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SOURCE_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "src");
const ENTRIES = ["index.ts", "transport.ts", "process.ts", "testing.ts"].map((entry) => join(SOURCE_ROOT, entry));
const PROTOCOL_ENTRIES = ["@codex-rpc/protocol", "@codex-rpc/protocol/experimental"];

const COMPILER_OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2022.d.ts", "lib.esnext.disposable.d.ts"],
  types: [],
  strict: true,
  skipLibCheck: true,
  noEmit: true,
};

/**
 * Loads `entries` with the compiler, and the protocol's entries through a module that exists only
 * in memory (as do `virtualFiles`, path → text), placed in src so imports resolve as core's do.
 */
function load(entries: readonly string[], virtualFiles: Readonly<Record<string, string>> = {}) {
  const probe = join(SOURCE_ROOT, "__protocol-probe__.ts");
  const inMemory = new Map(
    Object.entries({ ...virtualFiles, [probe]: PROTOCOL_ENTRIES.map((specifier, i) => `export * as p${i} from "${specifier}";`).join("\n") }),
  );
  const host = ts.createCompilerHost(COMPILER_OPTIONS);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (file) => inMemory.get(file) ?? readFile(file);
  host.fileExists = (file) => inMemory.has(file) || fileExists(file);
  host.getSourceFile = (file, language, ...rest) => {
    const text = inMemory.get(file);
    return text === undefined ? getSourceFile(file, language, ...rest) : ts.createSourceFile(file, text, language);
  };
  const program = ts.createProgram([...entries, probe], COMPILER_OPTIONS, host);
  const checker = program.getTypeChecker();
  const exportsOf = (file: string): ts.Symbol[] => {
    const source = program.getSourceFile(file);
    const symbol = source && checker.getSymbolAtLocation(source);
    if (!symbol) throw new Error(`${file} did not load`);
    return checker.getExportsOfModule(symbol);
  };
  const protocolNames = new Set<string>();
  for (const namespace of exportsOf(probe)) {
    const target = checker.getAliasedSymbol(namespace);
    for (const symbol of checker.getExportsOfModule(target)) protocolNames.add(symbol.name);
  }
  return { checker, entries: entries.map((file) => ({ file, symbols: exportsOf(file) })), protocolNames };
}

function isObservable(type: ts.Type, checker: ts.TypeChecker): boolean {
  const name = (type.aliasSymbol ?? type.getSymbol())?.name;
  if (name === "Observable") return true;
  return (
    ["subscribe", "pipe"].every((member) => checker.getPropertyOfType(type, member) !== undefined) && name !== undefined && /Observable|Subject/.test(name)
  );
}

/** Every public property (or getter) of an exported class or interface whose name and type disagree on `$`. */
function streamNameViolations(loaded: ReturnType<typeof load>): string[] {
  const { checker } = loaded;
  const problems: string[] = [];
  const seen = new Set<ts.Symbol>();
  for (const { file, symbols } of loaded.entries) {
    for (const exported of symbols) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      if (seen.has(symbol) || !(symbol.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface))) continue;
      seen.add(symbol);
      const declaration = symbol.declarations?.[0];
      if (!declaration) continue;
      const type = checker.getDeclaredTypeOfSymbol(symbol);
      for (const property of checker.getPropertiesOfType(type)) {
        const member = property.valueDeclaration ?? property.declarations?.[0];
        if (!member || ts.isMethodDeclaration(member) || ts.isMethodSignature(member)) continue;
        const modifiers = ts.canHaveModifiers(member) ? (ts.getModifiers(member) ?? []) : [];
        if (modifiers.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword)) continue;
        if (property.name.startsWith("#") || property.name.startsWith("__@")) continue;
        const propertyType = checker.getTypeOfSymbolAtLocation(property, member);
        const observable = isObservable(checker.getNonNullableType(propertyType), checker);
        const dollar = property.name.endsWith("$");
        if (observable && !dollar) problems.push(`${exported.name}.${property.name} is an Observable without \`$\` (${relativeName(file)})`);
        if (!observable && dollar) problems.push(`${exported.name}.${property.name} ends in \`$\` but is no Observable (${relativeName(file)})`);
      }
    }
  }
  return problems;
}

function sharedNames(loaded: ReturnType<typeof load>): string[] {
  return loaded.entries.flatMap(({ file, symbols }) =>
    symbols.filter((symbol) => loaded.protocolNames.has(symbol.name)).map((symbol) => `${symbol.name} (${relativeName(file)}) is also a protocol export`),
  );
}

function relativeName(file: string): string {
  return file.startsWith(SOURCE_ROOT) ? `src${file.slice(SOURCE_ROOT.length)}` : file;
}

describe("core's names", () => {
  const loaded = load(ENTRIES);

  it("sees the surface it checks (the protocol's names and core's entries)", () => {
    expect(loaded.protocolNames.has("Thread")).toBe(true);
    expect(loaded.protocolNames.has("ThreadStartParams")).toBe(true);
    expect(loaded.entries.find((entry) => entry.file.endsWith("index.ts"))!.symbols.map((s) => s.name)).toContain("CodexClient");
  });

  it("every Observable property ends in `$`, and only those do", () => {
    expect(streamNameViolations(loaded)).toEqual([]);
  });

  it("no export of core shares its name with an export of the protocol", () => {
    expect(sharedNames(loaded)).toEqual([]);
  });
});

describe("the checks find what they look for", () => {
  it("report an Observable without `$`, a `$` that is no Observable, and a protocol name", () => {
    const file = join(SOURCE_ROOT, "__bad-names__.ts");
    const bad = load([file], {
      [file]: [
        `import type { Observable } from "rxjs";`,
        `export interface Leaky { readonly events: Observable<number>; readonly count$: number; readonly fine$: Observable<string>; }`,
        `export class Thread { readonly updates?: Observable<number>; private hidden: Observable<number> | undefined; method(): Observable<number> { return this.hidden!; } }`,
      ].join("\n"),
    });
    expect(streamNameViolations(bad)).toEqual([
      "Leaky.events is an Observable without `$` (src/__bad-names__.ts)",
      "Leaky.count$ ends in `$` but is no Observable (src/__bad-names__.ts)",
      "Thread.updates is an Observable without `$` (src/__bad-names__.ts)",
    ]);
    expect(sharedNames(bad)).toEqual(["Thread (src/__bad-names__.ts) is also a protocol export"]);
  });
});
