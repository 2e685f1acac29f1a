import { isSchemaObject, pointerSegment } from "./json-schema.js";
import { METHOD_UNIONS, type ProtocolMethods } from "./protocol-methods.js";
import type { SchemaBundle, SchemaDefinition } from "./schema-bundle.js";

/**
 * The definitions a client may write: reachable from client requests, client notifications and
 * the results of server requests.
 *
 * It decides optionality. Whatever the client builds may leave a nullable or defaulted field out
 * (codex's params are `field?: T | null`); everything else is written by the server, which always
 * writes such a field (as `null` or its default), so there it is present.
 */
export function clientWrittenDefinitions(bundle: SchemaBundle, methods: ProtocolMethods): Set<SchemaDefinition> {
  return reachable(bundle, [
    bundle.rootDefinition(METHOD_UNIONS.clientRequest),
    bundle.rootDefinition(METHOD_UNIONS.clientNotification),
    ...methods.byKind.serverRequest.flatMap((m) => (m.result ? [m.result.definition] : [])),
  ]);
}

function reachable(bundle: SchemaBundle, roots: readonly SchemaDefinition[]): Set<SchemaDefinition> {
  const seen = new Set<SchemaDefinition>();
  const pending = [...roots];
  while (pending.length > 0) {
    const def = pending.pop() as SchemaDefinition;
    if (seen.has(def)) continue;
    seen.add(def);
    visitRefs(def.schema, def.pointer, (ref, at) => pending.push(bundle.resolve(ref, at)));
  }
  return seen;
}

/** Calls `onRef` for every `$ref` inside a schema, with the pointer where it stands. */
export function visitRefs(schema: unknown, pointer: string, onRef: (ref: string, at: string) => void): void {
  if (!isSchemaObject(schema)) return;
  if (typeof schema.$ref === "string") onRef(schema.$ref, `${pointer}/$ref`);
  for (const key of ["properties", "definitions"] as const) {
    const map = schema[key];
    if (!isSchemaObject(map)) continue;
    for (const [name, child] of Object.entries(map)) visitRefs(child, `${pointer}/${key}/${pointerSegment(name)}`, onRef);
  }
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    schema[key]?.forEach((child, index) => visitRefs(child, `${pointer}/${key}/${index}`, onRef));
  }
  if (Array.isArray(schema.items)) schema.items.forEach((child, index) => visitRefs(child, `${pointer}/items/${index}`, onRef));
  else visitRefs(schema.items, `${pointer}/items`, onRef);
  visitRefs(schema.additionalProperties, `${pointer}/additionalProperties`, onRef);
}
