// What the client must make of one line from the server, decided from the line itself: the framing
// rules (JSON? an object? under the cap?), JSON-RPC lite classification by keys, and — for a known
// method — the method's generated params validator as the oracle of "bad". Diagnostic kind names
// live in KINDS only: if the client renames one, change it here.
import { SERVER_NOTIFICATION_METHODS, SERVER_REQUEST_METHODS } from "@codex-rpc/protocol";
import type { ProtocolValidators } from "@codex-rpc/protocol/validators";

/** The diagnostic kinds the client emits (transport, connection, client). */
export const KINDS = {
  invalidJson: "invalid-json",
  oversizeLine: "oversize-line",
  notAnObject: "not-an-object",
  unclassifiable: "unclassifiable-message",
  unknownResponse: "unknown-response",
  handlerError: "handler-error",
  validationFailed: "validation-failed",
  malformed: "malformed-message",
  unhandledServerRequest: "unhandled-server-request",
} as const;

/** What a bad message of a known method may be reported as, by validation mode and message kind. */
export const BAD_MESSAGE_KINDS = {
  validated: { notification: [KINDS.validationFailed], request: [KINDS.validationFailed] },
  unvalidated: { notification: [KINDS.malformed], request: [KINDS.malformed, KINDS.handlerError] },
} as const;
/** With validation on, a bad message yields exactly one diagnostic; off, at most one. */
const BAD_MESSAGE_COUNT = { validated: { min: 1, max: 1 }, unvalidated: { min: 0, max: 1 } } as const;

/** -32601, the answer to a server request no handler knows. */
export const METHOD_NOT_FOUND = -32601;

export type Shape = "invalid-json" | "oversize-line" | "not-an-object" | "unclassifiable" | "reply" | "notification" | "request";

export interface Expectation {
  readonly shape: Shape;
  readonly method?: string;
  /** The method is one of the pinned protocol's (notification or request, by shape). */
  readonly known: boolean;
  /** A fault: not a JSON object, over the cap, classifiable by no rule, a reply to nothing, or params the validator rejects. */
  readonly bad: boolean;
  /** Why the validator rejected the params (the first ajv error), for reports. */
  readonly why?: string;
  /** Diagnostics this line must produce: between min and max, each of one of `kinds`. */
  readonly diagnostics: { readonly kinds: readonly string[]; readonly min: number; readonly max: number };
  /** Where the message must arrive, once: the typed `notifications()`, `unknownNotifications()`, or nowhere. */
  readonly delivery: "typed" | "unknown" | "none";
  /** The `emittedAtMs` the line carries (how delivery is matched). */
  readonly tag?: number;
  /** The reply it must get: exactly one (with this error code when given), or at most one (an id no reply can echo). */
  readonly reply?: { readonly key: string; readonly count: "one" | "at-most-one"; readonly errorCode?: number };
  /** The parsed message (undefined for a line that is not a JSON object). */
  readonly message?: Record<string, unknown>;
}

const NOTIFICATIONS: ReadonlySet<string> = new Set(SERVER_NOTIFICATION_METHODS);
const REQUESTS: ReadonlySet<string> = new Set(SERVER_REQUEST_METHODS);
const utf8 = new TextEncoder();

export interface OracleOptions {
  readonly validators: ProtocolValidators;
  /**
   * Whether the client under test answers a server request of this method (a handler, an option or
   * a default of its own). One it does not answer gets -32601 and one `unhandled-server-request`
   * diagnostic ("no helper yet" for a method it does not know).
   */
  readonly answers: (method: string) => boolean;
  /** Whether the client under test runs with `validate` on. */
  readonly validate: boolean;
  /** The line cap of the client's transport, in bytes. */
  readonly maxLineBytes: number;
}

/**
 * A reply's id as a map key: the id echoed with its type. A number JSON cannot write (1e400 parses
 * to Infinity) is echoed as what JSON makes of it, `null`.
 */
export function replyKey(id: unknown): string {
  if (typeof id === "number" && !Number.isFinite(id)) return replyKey(null);
  if (typeof id === "string") return `s:${id}`;
  try {
    return `${typeof id}:${JSON.stringify(id)}`;
  } catch {
    // Nested too deep to write: no reply can carry it either.
    return `${typeof id}:(unwritable)`;
  }
}

/** What the client must do with `line`; `parsed` is the line's value when the caller already has it. */
export function expectationOf(line: string, parsed: unknown, options: OracleOptions): Expectation {
  const none = { kinds: [], min: 0, max: 0 } as const;
  const fault = (shape: Shape, kind: string, message?: Record<string, unknown>, extra: Partial<Expectation> = {}): Expectation => ({
    shape,
    known: false,
    bad: true,
    diagnostics: { kinds: [kind], min: 1, max: 1 },
    delivery: "none",
    ...(message ? { message } : {}),
    ...extra,
  });
  if (line.length * 3 > options.maxLineBytes && utf8.encode(line).length > options.maxLineBytes) return fault("oversize-line", KINDS.oversizeLine);
  let value = parsed;
  if (value === undefined) {
    try {
      value = JSON.parse(line);
    } catch {
      return fault("invalid-json", KINDS.invalidJson);
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return fault("not-an-object", KINDS.notAnObject);
  const message = value as Record<string, unknown>;
  const method = message.method;
  const hasId = Object.hasOwn(message, "id");
  const id = message.id;
  // A string or a finite number makes a request or a reply; 1e400 parses to Infinity, which no reply can echo.
  const idUsable = typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
  const tag = typeof message.emittedAtMs === "number" ? (message.emittedAtMs as number) : undefined;
  const withTag = tag === undefined ? {} : { tag };

  if (typeof method === "string") {
    if (hasId && !idUsable) {
      // An id of a type no reply can echo: neither a request nor a notification.
      return fault("unclassifiable", KINDS.unclassifiable, message, { method, reply: { key: replyKey(id), count: "at-most-one" } });
    }
    const shape = hasId ? "request" : "notification";
    const known = shape === "request" ? REQUESTS.has(method) : NOTIFICATIONS.has(method);
    const reply = hasId ? { key: replyKey(id), count: "one" as const, ...(known ? {} : { errorCode: METHOD_NOT_FOUND }) } : undefined;
    const delivery = shape === "request" ? "none" : known ? "typed" : "unknown";
    const base = { shape, method, known, message, delivery, ...withTag, ...(reply ? { reply } : {}) } as const;
    const unanswered = shape === "request" && !options.answers(method);
    const refusal = unanswered ? { kinds: [KINDS.unhandledServerRequest], min: 1, max: 1 } : none;
    if (!known) return { ...base, bad: false, diagnostics: refusal };
    const verdict = paramsVerdict(options.validators, shape, method, message.params);
    if (verdict.valid) return { ...base, bad: false, diagnostics: refusal };
    const mode = options.validate ? "validated" : "unvalidated";
    const badMessage = { kinds: BAD_MESSAGE_KINDS[mode][shape], ...BAD_MESSAGE_COUNT[mode] };
    const diagnostics = unanswered ? { kinds: [...badMessage.kinds, ...refusal.kinds], min: badMessage.min + 1, max: badMessage.max + 1 } : badMessage;
    return { ...base, bad: true, why: verdict.why, diagnostics };
  }
  if (idUsable && (Object.hasOwn(message, "result") || Object.hasOwn(message, "error"))) {
    // A reply: the fuzzer never sends one to a request the client made, so it answers nothing.
    return fault("reply", KINDS.unknownResponse, message);
  }
  return fault("unclassifiable", KINDS.unclassifiable, message);
}

/** The method's generated validator on `params`; a validator that throws (e.g. on deep nesting) rejects. */
export function paramsVerdict(
  validators: ProtocolValidators,
  shape: "request" | "notification",
  method: string,
  params: unknown,
): { valid: boolean; why?: string } {
  const table = (shape === "request" ? validators.serverRequestValidators : validators.serverNotificationValidators) as unknown as Record<
    string,
    { params: ((value: unknown) => boolean) & { errors?: readonly { instancePath: string; message?: string }[] | null } }
  >;
  const validate = table[method]!.params;
  try {
    if (validate(params)) return { valid: true };
    const first = validate.errors?.[0];
    return { valid: false, why: first ? `${first.instancePath || "/"} ${first.message ?? ""}`.trim() : "rejected" };
  } catch (error) {
    return { valid: false, why: `the validator threw ${error instanceof Error ? error.name : typeof error}` };
  }
}
