// fast-check arbitraries over the schema catalogue: a batch (one live turn) of steps, each a method
// (by name, so counterexamples read well), a mutation, its variant and weight class; handler
// outcomes; broken turn/start replies. Heavy mutations are rare, so a run's size stays bounded
// (about 200 MB of huge strings, 40 messages 100 000 levels deep and 50 oversize lines per 100 000 cases).
import fc from "fast-check";
import type { Catalogue } from "./protocol-catalogue.mjs";
import { ENVELOPE_VARIANTS, HEAVIEST_SIZE, type MutationKind } from "./malformed-messages.mjs";
import { HANDLER_OUTCOMES } from "./handler-outcomes.mjs";
import { SESSION_CONFIGS, type SessionConfig, type Step } from "./fuzz-session.js";

/** Relative frequency of each mutation in a batch. */
export const MUTATION_WEIGHTS: Readonly<Record<MutationKind, number>> = {
  valid: 160,
  "missing-required": 240,
  "null-required": 200,
  "wrong-type": 240,
  "unknown-enum": 120,
  "extra-fields": 120,
  "deep-nesting": 40,
  "huge-string": 20,
  "params-missing": 60,
  "params-null": 60,
  "params-array": 40,
  "params-string": 40,
  "unknown-method": 80,
  "bad-id": 100,
  "not-json": 60,
  "not-an-object": 40,
  "oversize-line": 1,
  unclassifiable: 40,
  "stray-reply": 40,
  "method-wrong-type": 20,
};

/** Steps per batch: one live turn carries this many cases. */
export const BATCH_STEPS = { min: 1, max: 120 } as const;

function weighted<T>(weights: Readonly<Record<string, number>>): fc.Arbitrary<T> {
  return fc.oneof(...Object.entries(weights).map(([value, weight]) => ({ weight, arbitrary: fc.constant(value as T) })));
}

/** The weight class of deep nesting and huge strings: the heaviest (100 000 levels, 3 MiB) in 2 % of them. */
const sizeArbitrary = fc.oneof(
  { weight: 70, arbitrary: fc.constant(0) },
  { weight: 20, arbitrary: fc.constant(1) },
  { weight: 8, arbitrary: fc.constant(2) },
  { weight: 2, arbitrary: fc.constant(HEAVIEST_SIZE) },
);

export function stepArbitrary(
  catalogue: Catalogue,
  mutations: Readonly<Record<string, number>> = MUTATION_WEIGHTS,
  methods = catalogue.entries.map((entry) => entry.method),
): fc.Arbitrary<Step> {
  return fc.record({
    method: fc.constantFrom(...methods),
    mutation: weighted<MutationKind>(mutations),
    pick: fc.nat({ max: 255 }),
    size: sizeArbitrary,
    deltaBefore: fc.boolean(),
  });
}

export function batchArbitrary(step: fc.Arbitrary<Step>): fc.Arbitrary<{ config: SessionConfig; steps: Step[] }> {
  return fc.record({
    config: fc.constantFrom(...SESSION_CONFIGS),
    steps: fc.array(step, { minLength: BATCH_STEPS.min, maxLength: BATCH_STEPS.max, size: "max" }),
  });
}

/** Server requests answered by handlers that do one of HANDLER_OUTCOMES each. */
export function handlerCallsArbitrary(catalogue: Catalogue): fc.Arbitrary<{ validate: boolean; calls: { method: string; outcome: string }[] }> {
  const methods = catalogue.entries.filter((entry) => entry.kind === "request").map((entry) => entry.method);
  return fc.record({
    validate: fc.boolean(),
    calls: fc.array(fc.record({ method: fc.constantFrom(...methods), outcome: fc.constantFrom(...HANDLER_OUTCOMES.map((outcome) => outcome.name)) }), {
      minLength: 1,
      maxLength: 60,
      size: "max",
    }),
  });
}

/** The mutations that apply to a reply's result value (not its envelope: the fake encodes it). */
export const RESULT_MUTATION_WEIGHTS: Readonly<Record<string, number>> = {
  valid: 2,
  "missing-required": 4,
  "null-required": 4,
  "wrong-type": 4,
  "unknown-enum": 2,
  "extra-fields": 2,
  "huge-string": 1,
  "params-null": 2,
  "params-array": 2,
  "params-string": 2,
};

/** A broken `turn/start` reply: the mutation of the schema's valid TurnStartResponse. */
export function turnStartReplyArbitrary(): fc.Arbitrary<{ validate: boolean; mutation: MutationKind; pick: number; size: number }> {
  return fc.record({ validate: fc.boolean(), mutation: weighted<MutationKind>(RESULT_MUTATION_WEIGHTS), pick: fc.nat({ max: 255 }), size: fc.constant(0) });
}

/**
 * What FUZZ_EXPLORE leaves out once a counterexample contained the step: the method and mutation
 * for mutations of a method's fields; the mutation and its variant for those of the envelope.
 */
export function exclusionKey(step: Step): string {
  const variants = ENVELOPE_VARIANTS[step.mutation];
  return variants === undefined ? `${step.method} ${step.mutation}` : `${step.mutation} #${step.pick % variants}`;
}
