import { verbatimModule, type ModuleNode } from "../nodes/module-nodes.js";

// validators.js and validators.d.ts: the same for every schema (loaders of the two chunks and the
// types of a validator), so they are written as source text rather than built node by node.

/** validators.js: loads each chunk on demand, and both as one table per message kind. */
export const VALIDATORS_ENTRY_JS: ModuleNode = verbatimModule(`/** What the client receives: server notification and request params, client request results. */
export function loadIncomingValidators() {
  return import("./validators/incoming.js");
}

/** What the client sends: client request and notification params, server request results. */
export function loadOutgoingValidators() {
  return import("./validators/outgoing.js");
}

/** Both directions, as one table per message kind: method → { params, result }. */
export async function loadValidators() {
  const [incoming, outgoing] = await Promise.all([loadIncomingValidators(), loadOutgoingValidators()]);
  return Object.freeze({
    clientRequestValidators: pair(outgoing.clientRequestParams, incoming.clientRequestResults),
    serverRequestValidators: pair(incoming.serverRequestParams, outgoing.serverRequestResults),
    serverNotificationValidators: pair(incoming.serverNotificationParams),
    clientNotificationValidators: pair(outgoing.clientNotificationParams),
  });
}

function pair(params, results) {
  const table = {};
  for (const method of Object.keys(params)) {
    table[method] = Object.freeze(results ? { params: params[method], result: results[method] } : { params: params[method] });
  }
  return Object.freeze(table);
}`);

/** validators.d.ts: the validator and error types, and the loaders' declarations. */
export const VALIDATORS_ENTRY_DTS: ModuleNode =
  verbatimModule(`import type { ClientNotificationMap, ClientRequestMap, ServerNotificationMap, ServerRequestMap } from "./methods.js";

/** One reason a value failed its schema (ajv's error object). */
export interface ValidationError {
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly message?: string;
}

/** A precompiled check: narrows on success; \`errors\` says why it failed. */
export interface Validator<T> {
  (value: unknown): value is T;
  errors?: readonly ValidationError[] | null;
}

export interface ProtocolValidators {
  readonly clientRequestValidators: {
    readonly [M in keyof ClientRequestMap]: { readonly params: Validator<ClientRequestMap[M]["params"]>; readonly result: Validator<ClientRequestMap[M]["result"]> };
  };
  readonly serverRequestValidators: {
    readonly [M in keyof ServerRequestMap]: { readonly params: Validator<ServerRequestMap[M]["params"]>; readonly result: Validator<ServerRequestMap[M]["result"]> };
  };
  readonly serverNotificationValidators: {
    readonly [M in keyof ServerNotificationMap]: { readonly params: Validator<ServerNotificationMap[M]["params"]> };
  };
  readonly clientNotificationValidators: {
    readonly [M in keyof ClientNotificationMap]: { readonly params: Validator<ClientNotificationMap[M]["params"]> };
  };
}

/** What the client receives: server notification and request params, client request results. */
export declare function loadIncomingValidators(): Promise<typeof import("./validators/incoming.js")>;
/** What the client sends: client request and notification params, server request results. */
export declare function loadOutgoingValidators(): Promise<typeof import("./validators/outgoing.js")>;
/** Both directions, as one table per message kind: method → { params, result }. */
export declare function loadValidators(): Promise<ProtocolValidators>;`);
