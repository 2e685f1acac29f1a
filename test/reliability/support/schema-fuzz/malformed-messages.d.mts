// Types of malformed-messages.mjs (plain JavaScript, shared with tools/malformed-turns.mjs).
import type { CatalogueEntry, ResultEntry } from "./protocol-catalogue.mjs";

export type MethodMutation =
  | "valid"
  | "missing-required"
  | "null-required"
  | "wrong-type"
  | "unknown-enum"
  | "extra-fields"
  | "deep-nesting"
  | "huge-string"
  | "params-missing"
  | "params-null"
  | "params-array"
  | "params-string"
  | "unknown-method"
  | "bad-id";
export type LineMutation = "not-json" | "not-an-object" | "oversize-line" | "unclassifiable" | "stray-reply" | "method-wrong-type";
export type MutationKind = MethodMutation | LineMutation;

export declare const METHOD_MUTATIONS: readonly MethodMutation[];
export declare const LINE_MUTATIONS: readonly LineMutation[];
export declare const MUTATION_KINDS: readonly MutationKind[];
export declare const DEPTHS: readonly number[];
export declare const HUGE_BYTES: readonly number[];
export declare const LINE_CAP_BYTES: number;
export declare const HEAVIEST_SIZE: number;
export declare const ENVELOPE_VARIANTS: Readonly<Partial<Record<MutationKind, number>>>;

/** One case: the catalogue entry, the mutation, which variant (`pick`) and how heavy (`size`: deep and huge). */
export interface CaseSpec {
  readonly entry: number;
  readonly mutation: MutationKind;
  readonly pick: number;
  readonly size: number;
}

/** The ids of the live turn, and the text that fills the templates' deltas. */
export interface LiveIds {
  readonly thread: string;
  readonly turn: string;
  readonly item: string;
  readonly text?: string | undefined;
}

export interface BuiltCase {
  /** The mutation that took effect ("valid" when the asked one does not apply to the method). */
  readonly mutation: MutationKind;
  readonly detail: string;
  readonly method: string | undefined;
  /** The line to send, without its newline. */
  readonly line: string;
  /** The line's JSON value when built without splicing text into it (else parse `line`). */
  readonly message: unknown;
  /** A server request by its keys (a method and a string or number id): the client must answer it once. */
  readonly expectsReply: boolean;
}

/** Builds one case of `entry` (the spec's own `entry` index is for enumerations; it is not read here). */
export declare function buildCase(entry: CatalogueEntry | ResultEntry, spec: Omit<CaseSpec, "entry">, seq: number, ids: LiveIds): BuiltCase;
export declare function requestIdFor(seq: number): number | string;
export declare function variantCount(entry: CatalogueEntry, mutation: MutationKind): number;
export declare function enumerateSpecs(entries: readonly CatalogueEntry[]): CaseSpec[];
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export declare function instantiate(entry: CatalogueEntry | ResultEntry, ids: LiveIds): any;
export declare function deepText(depth: number, shape: "array" | "object"): string;
