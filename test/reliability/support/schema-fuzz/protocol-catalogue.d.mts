// Types of protocol-catalogue.mjs (plain JavaScript, shared with tools/malformed-turns.mjs).
import type { ProtocolValidators } from "@codex-rpc/protocol/validators";
import type { FieldInfo } from "./valid-value.mjs";

/** A generated validator, as the catalogue holds it. */
export interface ParamsValidator {
  (value: unknown): boolean;
  errors?: readonly { readonly instancePath: string; readonly message?: string }[] | null;
}

/** A valid value of a result schema (what a handler answers, or the `turn/start` reply). */
export interface ResultEntry {
  readonly kind: "result";
  readonly method: string;
  readonly params: unknown;
  readonly fields: readonly FieldInfo[];
  readonly validate: ParamsValidator;
  templateText?: string;
}

/** One server notification or request method: a valid params template and its validator. */
export interface CatalogueEntry {
  readonly kind: "notification" | "request";
  readonly method: string;
  readonly params: unknown;
  readonly fields: readonly FieldInfo[];
  readonly validate: ParamsValidator;
  /** Requests: a valid result (from the method's response schema). */
  readonly result?: ResultEntry;
  templateText?: string;
}

export interface Catalogue {
  readonly entries: readonly CatalogueEntry[];
  readonly byMethod: ReadonlyMap<string, CatalogueEntry>;
  readonly validators: ProtocolValidators;
  readonly turnStartResponse: ResultEntry;
  /** Valid replies to `turn/start`, `thread/start` and `thread/read`, by method. */
  readonly clientResults: ReadonlyMap<string, ResultEntry>;
}

export declare const SCHEMA_DIR: string;
export declare function loadCatalogue(): Promise<Catalogue>;
