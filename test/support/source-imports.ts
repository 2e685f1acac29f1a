// Reads a source tree's imports with the TypeScript compiler (not grepped), for the layer tests of
// core and codegen (test/support/layer-violations.ts checks them).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/** One source file: its path under src and what it imports (relative specifiers unresolved). */
export interface SourceFacts {
  readonly file: string;
  readonly imports: readonly string[];
  /** Free identifiers that name one of the runtime globals asked about. */
  readonly runtimeGlobals: readonly string[];
}

/**
 * Reads one file: its imports (static, `export … from`, `import()`, `import type`) and which of
 * `runtimeGlobals` it names as free variables.
 */
export function factsOf(file: string, text: string, runtimeGlobals: ReadonlySet<string> = new Set()): SourceFacts {
  const imports = ts.preProcessFile(text, true, true).importedFiles.map((reference) => reference.fileName);
  if (runtimeGlobals.size === 0) return { file, imports, runtimeGlobals: [] };
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  // A name the file declares itself (a parameter called `window`, a local `process`) is not the global.
  const declared = new Set<string>();
  const used = new Set<string>();
  const collect = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && isDeclaredName(node)) declared.add(node.text);
    ts.forEachChild(node, collect);
  };
  const walk = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && runtimeGlobals.has(node.text) && !declared.has(node.text) && isFreeReference(node)) used.add(node.text);
    ts.forEachChild(node, walk);
  };
  collect(source);
  walk(source);
  return { file, imports, runtimeGlobals: [...used] };
}

/** An identifier that reads a variable (not a property name, a declaration, a type member or an import name). */
function isFreeReference(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
  if (ts.isQualifiedName(parent) && parent.right === node) return false;
  // `declare global { … }` names a scope for declarations, not the runtime's `global`.
  if (ts.isModuleDeclaration(parent) && parent.name === node) return false;
  if (
    (ts.isPropertyAssignment(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isPropertySignature(parent) ||
      ts.isMethodDeclaration(parent) ||
      ts.isMethodSignature(parent)) &&
    parent.name === node
  )
    return false;
  if (isDeclaredName(node) || ts.isExportSpecifier(parent)) return false;
  return true;
}

/** The name a variable, parameter, function, class or import declares. */
function isDeclaredName(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (
    (ts.isVariableDeclaration(parent) ||
      ts.isParameter(parent) ||
      ts.isFunctionDeclaration(parent) ||
      ts.isClassDeclaration(parent) ||
      ts.isBindingElement(parent)) &&
    parent.name === node
  )
    return true;
  return ts.isImportSpecifier(parent) || ts.isImportClause(parent) || ts.isNamespaceImport(parent);
}

/** Every `.ts` file under `root` (but those `skip` names), read: paths relative to `root`, `/`-separated. */
export function sourceFactsIn(root: string, options: { runtimeGlobals?: ReadonlySet<string>; skip?: (path: string) => boolean } = {}): SourceFacts[] {
  return sourceFiles(root)
    .filter((path) => !options.skip?.(path))
    .map((path) => factsOf(relative(root, path).replace(/\\/g, "/"), readFileSync(path, "utf8"), options.runtimeGlobals));
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}
