// Types of handler-outcomes.mjs (plain JavaScript, shared with tools/malformed-turns.mjs).

export declare const INTERNAL_ERROR: -32603;

/** The reply a handler outcome must get: an error with this code ("any": its own or -32603), or this result. */
export type ExpectedReply = { readonly error: number | "any" } | { readonly result: unknown };

export interface HandlerOutcome {
  readonly name: string;
  /** Does it: throws, or returns a value or a promise. */
  readonly run: () => unknown;
  readonly expect: ExpectedReply;
}

export declare const HANDLER_OUTCOMES: readonly HandlerOutcome[];
