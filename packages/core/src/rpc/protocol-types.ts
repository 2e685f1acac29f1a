import type { ProtocolTypes as StableProtocolTypes } from "@codex-rpc/protocol";

/**
 * What a generated protocol's `ProtocolTypes` looks like: method → params (and result) maps. The
 * client is typed by one of these: the stable surface by default, the experimental one, or a
 * module the user generated for their codex version (`codex-rpc-gen generate`).
 */
export interface ProtocolTypesShape {
  readonly clientRequests: object;
  readonly serverRequests: object;
  readonly serverNotifications: object;
}

/** The stable surface of the codex version `@codex-rpc/protocol` was generated from. */
export type DefaultProtocolTypes = StableProtocolTypes;

/** The `params` of method `M` in a method map, or `never` if the map has no such method. */
export type ParamsIn<Map, M> = M extends keyof Map ? (Map[M] extends { params: infer P } ? P : never) : never;
/** The `result` of method `M` in a method map, or `never` if the map has no such method. */
export type ResultIn<Map, M> = M extends keyof Map ? (Map[M] extends { result: infer R } ? R : never) : never;

export type ClientRequestMethodOf<T extends ProtocolTypesShape> = Extract<keyof T["clientRequests"], string>;
export type ServerRequestMethodOf<T extends ProtocolTypesShape> = Extract<keyof T["serverRequests"], string>;
export type ServerNotificationMethodOf<T extends ProtocolTypesShape> = Extract<keyof T["serverNotifications"], string>;

/** Every server notification of the protocol, as `{ method, params }`, discriminated by method. */
export type ServerNotificationOf<T extends ProtocolTypesShape> = {
  [M in ServerNotificationMethodOf<T>]: { readonly method: M; readonly params: ParamsIn<T["serverNotifications"], M> };
}[ServerNotificationMethodOf<T>];

/** The protocol's own types for the things the client models, read off its method maps. */
export type ThreadInfoOf<T extends ProtocolTypesShape> = ResultIn<T["clientRequests"], "thread/start"> extends { thread: infer X } ? X : never;
export type TurnInfoOf<T extends ProtocolTypesShape> = ParamsIn<T["serverNotifications"], "turn/completed"> extends { turn: infer X } ? X : never;
/** What `thread/tokenUsage/updated` carries as `tokenUsage` (`{ last, total, modelContextWindow }` in codex 0.169.0). */
export type TokenUsageOf<T extends ProtocolTypesShape> =
  ParamsIn<T["serverNotifications"], "thread/tokenUsage/updated"> extends { tokenUsage: infer X } ? X : never;
export type ThreadItemOf<T extends ProtocolTypesShape> = ParamsIn<T["serverNotifications"], "item/completed"> extends { item: infer X } ? X : never;
export type ThreadStartParamsOf<T extends ProtocolTypesShape> = Exclude<ParamsIn<T["clientRequests"], "thread/start">, undefined>;
export type ThreadResumeParamsOf<T extends ProtocolTypesShape> = Exclude<ParamsIn<T["clientRequests"], "thread/resume">, undefined>;
export type TurnStartParamsOf<T extends ProtocolTypesShape> = Exclude<ParamsIn<T["clientRequests"], "turn/start">, undefined>;
export type UserInputOf<T extends ProtocolTypesShape> = TurnStartParamsOf<T> extends { input: ReadonlyArray<infer I> } ? I : never;

/** The validators of a generated protocol, as far as the client uses them. */
export interface ProtocolValidatorsShape {
  readonly clientRequestValidators: object;
  readonly serverRequestValidators: object;
  readonly serverNotificationValidators: object;
}

/**
 * A generated protocol as a value: `import { protocol } from "@codex-rpc/protocol/experimental"`
 * (or from a module `codex-rpc-gen` wrote). `types` only carries the types, for inference.
 */
export interface CodexProtocol<T extends ProtocolTypesShape = ProtocolTypesShape> {
  /** The codex version it was generated from. */
  readonly version: string;
  /** `stable` or `experimental`: the experimental surface turns `experimentalApi` on by default. */
  readonly flavor?: string;
  readonly serverNotificationMethods: readonly string[];
  loadValidators(): Promise<ProtocolValidatorsShape>;
  readonly types?: T;
}
