import { visitRefs } from "./definition-refs.js";
import { METHOD_UNIONS, type ProtocolMethods } from "./protocol-methods.js";
import type { SchemaBundle, SchemaDefinition } from "../read/schema-bundle.js";

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
    ...methods.byKind.serverRequest.flatMap((m) => (m.result?.definition ? [m.result.definition] : [])),
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

/**
 * Which way each definition travels: `sent` when reachable from what the client writes (see
 * clientWrittenDefinitions), `received` when reachable from server notifications, server requests
 * and the results of client requests. A definition used both ways is in both.
 */
export function definitionDirections(bundle: SchemaBundle, methods: ProtocolMethods): Map<SchemaDefinition, Set<"sent" | "received">> {
  const received = reachable(bundle, [
    bundle.rootDefinition(METHOD_UNIONS.serverRequest),
    bundle.rootDefinition(METHOD_UNIONS.serverNotification),
    ...methods.byKind.clientRequest.flatMap((m) => (m.result?.definition ? [m.result.definition] : [])),
  ]);
  const directions = new Map<SchemaDefinition, Set<"sent" | "received">>();
  const add = (def: SchemaDefinition, direction: "sent" | "received") => {
    const set = directions.get(def) ?? new Set();
    set.add(direction);
    directions.set(def, set);
  };
  for (const def of clientWrittenDefinitions(bundle, methods)) add(def, "sent");
  for (const def of received) add(def, "received");
  return directions;
}
