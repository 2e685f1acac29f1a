import { methodSegments } from "./name-words.js";
import { inferResults } from "./result-inference.js";
import { RESULT_TABLE } from "./result-table.js";
import type { SchemaBundle, SchemaDefinition } from "../read/schema-bundle.js";

/** How a request's result type was found; `unknown` means it was not, and it is typed `unknown`. */
export type ResultRule = "convention" | "table" | "inferred" | "user-map" | "unknown";

/** Every rule, in the order reports list them. */
export const RESULT_RULES: readonly ResultRule[] = ["convention", "table", "inferred", "user-map", "unknown"];

export type ResolvedResult =
  | {
      readonly resolvedBy: Exclude<ResultRule, "unknown">;
      readonly definition: SchemaDefinition;
      /** What matched, e.g. `GatewayOAuthReadParams → GatewayOAuthReadResponse`. */
      readonly how: string;
    }
  | { readonly resolvedBy: "unknown"; readonly definition: undefined; readonly how: string };

/** A request whose result is to be resolved. */
export interface ResultQuery {
  readonly union: string;
  readonly method: string;
  /** The definition its params name, if they name one. */
  readonly paramsDefinition: SchemaDefinition | undefined;
}

export interface ResultResolution {
  readonly results: ReadonlyMap<ResultQuery, ResolvedResult>;
  readonly warnings: readonly string[];
}

/**
 * Resolves every request's result; never fails. The order, first match wins:
 *
 * 1. the user's map (`--result-map`, `resultMap`): their word beats any guess, and a map consulted
 *    after the guesses could not correct a wrong one, which is what it is for;
 * 2. the convention `XParams → XResponse` (~95% of methods, and exact);
 * 3. RESULT_TABLE, the first-party list checked against upstream's own map: it outranks the
 *    method-name guess below and the inference;
 * 4. the convention by method name, for requests without named params: the joined segments
 *    (`account/gatewayOAuth/read` → AccountGatewayOAuthReadResponse, then GatewayOAuthReadResponse),
 *    longest first, never fewer than two segments unless the method has one;
 * 5. inference among the responses nothing else claims (result-inference.ts);
 * 6. `unknown`, with a warning naming the method.
 */
export function resolveResults(
  bundle: SchemaBundle,
  queries: readonly ResultQuery[],
  resultMap: Readonly<Record<string, string>> = {},
  table: Readonly<Record<string, string>> = RESULT_TABLE,
): ResultResolution {
  const byName = new Map<string, SchemaDefinition>();
  for (const def of bundle.definitions) if (!def.namespace) byName.set(def.name, def);
  const warnings: string[] = [];
  const results = new Map<ResultQuery, ResolvedResult>();

  for (const query of queries) {
    const mapped = resultMap[query.method];
    if (mapped !== undefined) {
      const definition = byName.get(mapped);
      if (definition) {
        results.set(query, { resolvedBy: "user-map", definition, how: `result map → ${mapped}` });
        continue;
      }
      warnings.push(`${bundle.flavor}: the result map names ${mapped} for "${query.method}", which these schemas do not define; ignored`);
    }
    const resolved = byConvention(query, byName) ?? byTable(query, byName, table) ?? byMethodName(query, byName);
    if (resolved) results.set(query, resolved);
  }

  const open = queries.filter((query) => !results.has(query));
  const claimed = new Set([...results.values()].flatMap((r) => (r.definition ? [r.definition] : [])));
  const inferred = inferResults(
    bundle,
    open.map((q) => q.method),
    claimed,
  );
  for (const query of open) {
    const inference = inferred.get(query.method);
    if (inference?.definition) {
      const how = `unclaimed ${inference.definition.name} (words ${inference.words.join(" ")})`;
      results.set(query, { resolvedBy: "inferred", definition: inference.definition, how });
      continue;
    }
    const tie = inference ? `; equally likely: ${inference.tied.join(", ")}` : "";
    results.set(query, { resolvedBy: "unknown", definition: undefined, how: `no rule matched${tie}` });
    warnings.push(
      `${bundle.flavor}: ${query.union} "${query.method}" (params: ${query.paramsDefinition?.name ?? "none"}) has no known result type${tie}; ` +
        `typed \`unknown\`. Name it with --result-map FILE ({ "${query.method}": "DefinitionName" })`,
    );
  }
  return { results, warnings };
}

function byConvention(query: ResultQuery, byName: ReadonlyMap<string, SchemaDefinition>): ResolvedResult | undefined {
  const params = query.paramsDefinition?.name;
  if (!params?.endsWith("Params")) return undefined;
  const name = `${params.slice(0, -"Params".length)}Response`;
  const definition = byName.get(name);
  return definition && { resolvedBy: "convention", definition, how: `${params} → ${name}` };
}

function byTable(query: ResultQuery, byName: ReadonlyMap<string, SchemaDefinition>, table: Readonly<Record<string, string>>): ResolvedResult | undefined {
  const name = table[query.method];
  const definition = name === undefined ? undefined : byName.get(name);
  return definition && { resolvedBy: "table", definition, how: `RESULT_TABLE → ${name}` };
}

function byMethodName(query: ResultQuery, byName: ReadonlyMap<string, SchemaDefinition>): ResolvedResult | undefined {
  if (query.paramsDefinition) return undefined;
  const segments = methodSegments(query.method);
  if (segments.length === 0) return undefined;
  const shortest = Math.min(2, segments.length);
  for (let start = 0; segments.length - start >= shortest; start++) {
    const name = `${segments.slice(start).join("")}Response`;
    const definition = byName.get(name);
    if (definition) return { resolvedBy: "convention", definition, how: `method name → ${name}` };
  }
  return undefined;
}
