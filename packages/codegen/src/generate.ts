import { clientWrittenDefinitions } from "./analyse/message-directions.js";
import { METHOD_UNIONS, readProtocolMethods, type MethodKind } from "./analyse/protocol-methods.js";
import { RESULT_RULES, type ResultRule } from "./analyse/result-resolution.js";
import { emitIndexModules } from "./emit/index-modules.js";
import { emitProtocolModules } from "./emit/protocol-modules.js";
import { TypeEmitter } from "./emit/type-emitter.js";
import { emitValidatorModules } from "./emit/validator-modules.js";
import type { SourceFile } from "./nodes/source-file.js";
import { printSourceFile } from "./print/print-source-file.js";
import { readSchemaDirectory, type SchemaFlavor } from "./read/schema-bundle.js";
import { generatedHeader } from "./write/generated-header.js";
import { packageManifest } from "./write/package-manifest.js";

export interface GenerateOptions {
  /** A vendored schema directory: `manifest.json`, `stable/`, optionally `experimental/`. */
  readonly schemasDir: string;
  /** The command written into every file's header (how to make the files again). */
  readonly command: string;
  /** What to emit; both by default. `types` is types, method maps and index; `validators` the ajv modules. */
  readonly include?: readonly ("types" | "validators")[];
  /**
   * Method → result definition name, for requests whose result the built-in rules miss or get
   * wrong (`{ "account/gatewayOAuth/read": "GatewayOAuthReadResponse" }`). It wins over every rule.
   */
  readonly resultMap?: Readonly<Record<string, string>>;
  /** Adds a `package.json` by this name, so that the output is a package of its own. */
  readonly packageName?: string;
  /** Replaces the built-in RESULT_TABLE; `{}` shows what the other rules find without it. */
  readonly resultTable?: Readonly<Record<string, string>>;
}

/** How one request's result was found. */
export interface ResultReport {
  readonly union: string;
  readonly method: string;
  readonly resolvedBy: ResultRule;
  /** The result definition's name; undefined when `unknown`. */
  readonly definition: string | undefined;
  readonly how: string;
}

export interface FlavorReport {
  readonly flavor: SchemaFlavor;
  readonly definitions: number;
  readonly methods: Readonly<Record<MethodKind, number>>;
  /** Requests whose result came from RESULT_TABLE rather than the naming convention. */
  readonly resultsFromTable: readonly string[];
  /** Every request's result and the rule that found it. */
  readonly results: readonly ResultReport[];
  /** How many results each rule found. */
  readonly resultsByRule: Readonly<Record<ResultRule, number>>;
  /** Requests typed `unknown`, and result-map entries that named a missing definition. */
  readonly warnings: readonly string[];
  /** Names v1 and v2 both define identically, emitted once. */
  readonly mergedDuplicates: readonly string[];
  /** Names v1 and v2 define differently: the v1 one is emitted as `v1.Name`. */
  readonly v1Namespaced: readonly string[];
  /** Definitions a client may write (their nullable and defaulted fields are optional). */
  readonly clientWrittenDefinitions: number;
}

export interface GenerateResult {
  readonly codexVersion: string;
  /** Output path (relative to the output directory, `/`-separated) → file content. */
  readonly files: ReadonlyMap<string, string>;
  readonly reports: readonly FlavorReport[];
  /** Every flavor's warnings, then result-map entries naming a method no flavor has. */
  readonly warnings: readonly string[];
}

/** Reads the schemas and returns every output file's content; writes nothing. */
export function generate(options: GenerateOptions): GenerateResult {
  const directory = readSchemaDirectory(options.schemasDir);
  const files = new Map<string, string>();
  const reports: FlavorReport[] = [];
  const seenMethods = new Set<string>();
  for (const bundle of directory.bundles) {
    const header = generatedHeader(directory.codexVersion, bundle.flavor, options.command);
    const methods = readProtocolMethods(bundle, {
      resultMap: options.resultMap ?? {},
      ...(options.resultTable && { resultTable: options.resultTable }),
    });
    for (const m of methods.all) seenMethods.add(m.method);
    const clientWritten = clientWrittenDefinitions(bundle, methods);
    const emitter = new TypeEmitter(bundle, clientWritten, methods.all);
    const include = options.include ?? ["types", "validators"];
    const modules: Iterable<[string, SourceFile]>[] = [];
    if (include.includes("types"))
      modules.push(Object.entries({ ...emitProtocolModules(methods, emitter), ...emitIndexModules(directory.codexVersion, bundle.flavor) }));
    if (include.includes("validators")) modules.push(emitValidatorModules(bundle, methods));
    // Printed as each is emitted (the validators are emitted lazily), so no node outlives its text.
    for (const list of modules) for (const [name, node] of list) files.set(`${bundle.flavor}/${name}`, `${header}\n${printSourceFile(node)}`);
    const results: ResultReport[] = methods.all.flatMap((m) =>
      m.result
        ? [{ union: METHOD_UNIONS[m.kind], method: m.method, resolvedBy: m.result.resolvedBy, definition: m.result.definition?.name, how: m.result.how }]
        : [],
    );
    reports.push({
      flavor: bundle.flavor,
      definitions: bundle.definitions.length,
      methods: Object.fromEntries(Object.entries(methods.byKind).map(([kind, list]) => [kind, list.length])) as Record<MethodKind, number>,
      resultsFromTable: methods.all.filter((m) => m.result?.resolvedBy === "table").map((m) => m.method),
      results,
      resultsByRule: Object.fromEntries(RESULT_RULES.map((rule) => [rule, results.filter((r) => r.resolvedBy === rule).length])) as Record<ResultRule, number>,
      warnings: methods.warnings,
      mergedDuplicates: bundle.mergedDuplicates,
      v1Namespaced: bundle.definitions.filter((d) => d.namespace === "v1").map((d) => d.name),
      clientWrittenDefinitions: clientWritten.size,
    });
  }
  if (options.packageName) {
    const flavors = directory.bundles.map((b) => b.flavor);
    files.set("package.json", packageManifest(options.packageName, directory.codexVersion, flavors, options.command));
  }
  const unusedMapEntries = Object.keys(options.resultMap ?? {}).filter((method) => !seenMethods.has(method));
  const warnings = [
    ...reports.flatMap((r) => r.warnings),
    ...unusedMapEntries.map((method) => `the result map names "${method}", which no request in these schemas has; ignored`),
  ];
  return { codexVersion: directory.codexVersion, files, reports, warnings };
}
