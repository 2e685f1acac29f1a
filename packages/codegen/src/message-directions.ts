import { isSchemaObject, pointerSegment } from "./json-schema.js";
import { METHOD_UNIONS, type ProtocolMethods } from "./protocol-methods.js";
import type { SchemaBundle, SchemaDefinition } from "./schema-bundle.js";

/**
 * The definitions that only ever travel from server to client: reachable from server
 * notifications, server requests and client-request results, and from nothing the client sends.
 *
 * It decides optionality: the server always writes a nullable or defaulted field (as `null` or its
 * default), so in these types such a field is present; in anything the client may build, it may
 * be left out.
 */
export function serverOnlyDefinitions(bundle: SchemaBundle, methods: ProtocolMethods): Set<SchemaDefinition> {
  const fromServer = [
    bundle.rootDefinition(METHOD_UNIONS.serverNotification),
    bundle.rootDefinition(METHOD_UNIONS.serverRequest),
    ...methods.byKind.clientRequest.flatMap((m) => (m.result ? [m.result.definition] : [])),
  ];
  const fromClient = [
    bundle.rootDefinition(METHOD_UNIONS.clientRequest),
    bundle.rootDefinition(METHOD_UNIONS.clientNotification),
    ...methods.byKind.serverRequest.flatMap((m) => (m.result ? [m.result.definition] : [])),
  ];
  const serverSent = reachable(bundle, fromServer);
  const clientSent = reachable(bundle, fromClient);
  for (const def of clientSent) serverSent.delete(def);
  return serverSent;
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
