import type { MethodKind } from "./protocol-methods.js";

/**
 * Which way a value travels, seen from the client. It SENDS client requests' params, client
 * notifications' params and the results of server requests; it RECEIVES server notifications'
 * params, server requests' params and the results of its own requests.
 */
export type Direction = "sent" | "received";

/** What a change means for a client built against the old version. */
export type Severity = "breaking" | "additive";

/**
 * `exhaustive-matching`: the change is additive on the wire, but a client that switches over every
 * value (a `never` check, or validators generated from the old schema) meets one it does not know.
 * `must-answer`: a new server request; a client that does not know it must still answer it (-32601).
 */
export type ChangeNote = "exhaustive-matching" | "must-answer";

export type ChangeKind =
  | "field-added-required"
  | "field-added-optional"
  | "field-removed"
  | "field-now-required"
  | "field-now-optional"
  | "values-added"
  | "values-removed"
  | "variant-added"
  | "variant-removed"
  | "nullable-added"
  | "nullable-removed"
  | "type-widened"
  | "type-narrowed"
  | "type-changed"
  | "type-renamed"
  | "format-changed"
  | "extra-keys-allowed"
  | "extra-keys-refused"
  | "params-added-required"
  | "params-added-optional"
  | "params-removed"
  | "result-resolution-changed";

interface Rule {
  readonly severity: Severity;
  readonly note?: ChangeNote;
}

const BREAKING: Rule = { severity: "breaking" };
const ADDITIVE: Rule = { severity: "additive" };
const EXHAUSTIVE: Rule = { severity: "additive", note: "exhaustive-matching" };

/**
 * The rules, per direction. What the client sends must still be accepted by the new server: a new
 * requirement or a narrower type breaks it. What it receives must still be readable by the old
 * client: a wider type or a value that may now be missing breaks it. A new enum value or union
 * variant it receives is additive with the `exhaustive-matching` note (decided: additive, since
 * the wire stays compatible and only exhaustive code must learn the new value; `--fail-on breaking`
 * does not trip on it). A removed field breaks both ways: the server ignores what it no longer
 * knows (silently), and a reader meets `undefined` where it expected a value.
 */
export const CHANGE_SEVERITY: Readonly<Record<ChangeKind, Readonly<Record<Direction, Rule>>>> = {
  "field-added-required": { sent: BREAKING, received: ADDITIVE },
  "field-added-optional": { sent: ADDITIVE, received: ADDITIVE },
  "field-removed": { sent: BREAKING, received: BREAKING },
  "field-now-required": { sent: BREAKING, received: ADDITIVE },
  "field-now-optional": { sent: ADDITIVE, received: BREAKING },
  "values-added": { sent: ADDITIVE, received: EXHAUSTIVE },
  "values-removed": { sent: BREAKING, received: ADDITIVE },
  "variant-added": { sent: ADDITIVE, received: EXHAUSTIVE },
  "variant-removed": { sent: BREAKING, received: ADDITIVE },
  "nullable-added": { sent: ADDITIVE, received: BREAKING },
  "nullable-removed": { sent: BREAKING, received: ADDITIVE },
  "type-widened": { sent: ADDITIVE, received: BREAKING },
  "type-narrowed": { sent: BREAKING, received: ADDITIVE },
  "type-changed": { sent: BREAKING, received: BREAKING },
  // Another name for the same place; what differs between the two definitions is listed beside it.
  "type-renamed": { sent: ADDITIVE, received: ADDITIVE },
  // Integer widths are checked by the validators; a different width is treated as a different type.
  "format-changed": { sent: BREAKING, received: BREAKING },
  "extra-keys-allowed": { sent: ADDITIVE, received: ADDITIVE },
  "extra-keys-refused": { sent: BREAKING, received: ADDITIVE },
  "params-added-required": { sent: BREAKING, received: ADDITIVE },
  "params-added-optional": { sent: ADDITIVE, received: ADDITIVE },
  "params-removed": { sent: BREAKING, received: BREAKING },
  // Our resolution of a result (not the protocol) changed, e.g. `unknown` became a definition.
  "result-resolution-changed": { sent: ADDITIVE, received: ADDITIVE },
};

/** Adding or removing a whole method, by kind. */
export const METHOD_SEVERITY: Readonly<Record<MethodKind, Readonly<Record<"added" | "removed", Rule>>>> = {
  // A removed request fails with -32600 ("unknown variant").
  clientRequest: { added: ADDITIVE, removed: BREAKING },
  // A removed notification never comes: whoever waits for it waits forever.
  serverNotification: { added: ADDITIVE, removed: BREAKING },
  serverRequest: { added: { severity: "additive", note: "must-answer" }, removed: ADDITIVE },
  clientNotification: { added: ADDITIVE, removed: BREAKING },
};

/** The rule for a change seen from several directions: the worst one (breaking wins). */
export function severityOf(kind: ChangeKind, directions: readonly Direction[]): Rule {
  const rules = directions.map((direction) => CHANGE_SEVERITY[kind][direction]);
  return rules.find((rule) => rule.severity === "breaking") ?? rules.find((rule) => rule.note) ?? rules[0] ?? ADDITIVE;
}

/** Which way params and results of each kind of method travel. */
export const MESSAGE_DIRECTIONS: Readonly<Record<MethodKind, { readonly params: Direction; readonly result: Direction }>> = {
  clientRequest: { params: "sent", result: "received" },
  clientNotification: { params: "sent", result: "received" },
  serverRequest: { params: "received", result: "sent" },
  serverNotification: { params: "received", result: "sent" },
};
