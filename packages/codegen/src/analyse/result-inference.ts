import { visitRefs } from "./definition-refs.js";
import { methodSegments, nameWords } from "./name-words.js";
import type { SchemaBundle, SchemaDefinition } from "../read/schema-bundle.js";

const RESPONSE = "Response";

/** The outcome for one method: the definition it matched, or the tie that stopped the guess. */
export type Inference =
  | { readonly definition: SchemaDefinition; readonly words: readonly string[] }
  | { readonly definition: undefined; readonly tied: readonly string[] };

/**
 * The inference rule, for requests the convention and the table leave open.
 *
 * Candidates are the `…Response` definitions that no resolved method claims and that no other
 * definition references (a referenced one is data inside a message, not a result). A candidate
 * matches a method when every word of its stem is one of the method's words, the stem holds every
 * word of the method's last segment (its verb: `read`, `logout`) and has at least two words; a
 * leading `Get` counts as `read` (`account/securitySetup/read` → GetAccountSecuritySetupResponse).
 * Word order is free (`account/logout` → LogoutAccountResponse). Of several matches the one with
 * the most words wins; a tie is not guessed.
 */
export function inferResults(bundle: SchemaBundle, methods: readonly string[], claimed: ReadonlySet<SchemaDefinition>): Map<string, Inference> {
  const candidates = unclaimedResponses(bundle, claimed);
  const inferred = new Map<string, Inference>();
  for (const method of methods) {
    const words = new Set(methodSegments(method).flatMap(nameWords));
    const verb = nameWords(methodSegments(method).at(-1) ?? "");
    const matches = candidates.filter(({ stem }) => stem.length >= 2 && stem.every((word) => words.has(word)) && verb.every((word) => stem.includes(word)));
    if (matches.length === 0) continue;
    const most = Math.max(...matches.map((m) => m.stem.length));
    const best = matches.filter((m) => m.stem.length === most);
    inferred.set(
      method,
      best.length === 1
        ? { definition: (best[0] as Candidate).definition, words: (best[0] as Candidate).stem }
        : { definition: undefined, tied: best.map((m) => m.definition.name) },
    );
  }
  return inferred;
}

interface Candidate {
  readonly definition: SchemaDefinition;
  /** The name's words without `Response`, a leading `get` read as `read`. */
  readonly stem: readonly string[];
}

function unclaimedResponses(bundle: SchemaBundle, claimed: ReadonlySet<SchemaDefinition>): Candidate[] {
  const referenced = new Set<SchemaDefinition>();
  for (const def of bundle.definitions) {
    visitRefs(def.schema, def.pointer, (ref, at) => {
      const target = bundle.resolve(ref, at);
      if (target !== def) referenced.add(target);
    });
  }
  return bundle.definitions
    .filter((def) => !def.namespace && def.name.endsWith(RESPONSE) && !claimed.has(def) && !referenced.has(def))
    .map((definition) => {
      const stem = nameWords(definition.name.slice(0, -RESPONSE.length));
      if (stem[0] === "get") stem[0] = "read";
      return { definition, stem };
    });
}
