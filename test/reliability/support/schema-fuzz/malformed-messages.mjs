// The mutations that break a server message, applied to the valid templates of protocol-catalogue.mjs:
// each required field missing, null, or of the wrong type; an unknown enum value; extra fields;
// deep nesting (up to 100 000 levels, spliced in as text: JSON.stringify would overflow); huge
// strings; params missing / null / an array / a string; unknown methods; bad ids; and lines that are
// not JSON objects at all. A case is a small plain spec ({ entry, mutation, pick, size }) so that
// fast-check can generate and shrink it and tools/malformed-turns.mjs can enumerate it in rotation.
// Whether a case is "bad" is not decided here: the method's generated validator is the oracle.
import { ID_PLACEHOLDERS } from "./valid-value.mjs";

/** Mutations of one method's message (need a catalogue entry). */
export const METHOD_MUTATIONS = Object.freeze([
  "valid",
  "missing-required",
  "null-required",
  "wrong-type",
  "unknown-enum",
  "extra-fields",
  "deep-nesting",
  "huge-string",
  "params-missing",
  "params-null",
  "params-array",
  "params-string",
  "unknown-method",
  "bad-id",
]);

/** Lines that belong to no method: not JSON, not an object, too long, or classifiable by no rule. */
export const LINE_MUTATIONS = Object.freeze(["not-json", "not-an-object", "oversize-line", "unclassifiable", "stray-reply", "method-wrong-type"]);

export const MUTATION_KINDS = Object.freeze([...METHOD_MUTATIONS, ...LINE_MUTATIONS]);

/** Nesting depths of `deep-nesting`, by `size` (index modulo the length). */
export const DEPTHS = Object.freeze([64, 1_000, 10_000, 100_000]);
/** Lengths in bytes of `huge-string`, by `size`. Below the line cap the fuzz sessions use (see LINE_CAP_BYTES). */
export const HUGE_BYTES = Object.freeze([64 * 1024, 1024 * 1024, 3 * 1024 * 1024]);
/** The line cap of the fuzz sessions' transport: `oversize-line` goes past it, `huge-string` stays below. */
export const LINE_CAP_BYTES = 4 * 1024 * 1024;
/** `size` picks the weight class: 0 and 1 the lightest …, 3 the heaviest (100 000 levels, 3 MiB). */
export const HEAVIEST_SIZE = 3;

/** The entry of `sizes` for `size`: the heaviest at HEAVIEST_SIZE, the lightest at and below HEAVIEST_SIZE + 1 - sizes.length. */
function bySize(sizes, size) {
  return sizes[Math.max(0, Math.min(size, HEAVIEST_SIZE) - (HEAVIEST_SIZE + 1 - sizes.length))];
}

/** Values of each JSON type for `wrong-type` (the field's own types are skipped). */
const WRONG_VALUES = Object.freeze([
  { type: "integer", value: 42 },
  { type: "string", value: "wrong-type" },
  { type: "boolean", value: true },
  { type: "array", value: [] },
  { type: "object", value: {} },
  { type: "number", value: 1.5 },
  { type: "integer", value: -1 },
]);
/** Ids of a request (or a notification made one): the first four are of a type no rule classifies. */
const BAD_IDS = Object.freeze(["null", "object", "boolean", "array", "float", "huge-string", "overflow", "absent", "empty-string", "negative"]);
const UNKNOWN_METHOD_VARIANTS = 5;
const EXTRA_FIELD_VARIANTS = 6;
const DEEP_VARIANTS = 5;
const SPLICE = "__fuzz_splice_9d41__";
/** A bit of every UTF-8 width, and U+2028 (which readline-based readers split lines on). */
const HUGE_UNIT = "xé😀\u2028";
const HUGE_UNIT_BYTES = 10;

const NOT_JSON = Object.freeze(["not json", "{'single': 'quotes'}", '{"method":"item/agentMessage/delta",}', '{"a":1}}', "NaN", "{\u0000}", "]["]);
const NOT_AN_OBJECT = Object.freeze(["[1,2]", "42", '"a string"', "null", "true", "[]", '[{"method":"turn/completed","params":{}}]']);

/**
 * Mutations whose effect does not depend on the method's fields (the envelope, the id, the line),
 * with how many variants `pick` chooses among (deep nesting: where the nesting goes).
 */
export const ENVELOPE_VARIANTS = Object.freeze({
  "bad-id": BAD_IDS.length,
  "deep-nesting": DEEP_VARIANTS,
  "unknown-method": UNKNOWN_METHOD_VARIANTS,
  "extra-fields": EXTRA_FIELD_VARIANTS,
  "not-json": NOT_JSON.length + 1,
  "not-an-object": NOT_AN_OBJECT.length,
  "oversize-line": 1,
  unclassifiable: 6,
  "stray-reply": 4,
  "method-wrong-type": 4,
});

/**
 * Builds the line of one case. `entry` is the case's catalogue entry (any entry for line mutations),
 * `seq` a number unique in the session (tags notifications with `emittedAtMs` and makes request ids),
 * `ids` the live thread, turn and item ids. Returns the line (no newline), the message object when it
 * is one JSON object built without splicing (else undefined: parse `line`), the mutation that took
 * effect (a mutation that does not apply to the method falls back to "valid") and what it did.
 */
export function buildCase(entry, spec, seq, ids) {
  const mutation = spec.mutation;
  if (LINE_MUTATIONS.includes(mutation)) return buildLine(entry, spec, seq, ids);
  const params = instantiate(entry, ids);
  const message = entry.kind === "request" ? { id: requestIdFor(seq), method: entry.method, params } : { method: entry.method, emittedAtMs: seq, params };
  const done = (effective, detail, built = message) => ({
    mutation: effective,
    detail,
    method: entry.method,
    line: JSON.stringify(built),
    message: built,
    expectsReply: expectsReply(built),
  });
  const pick = spec.pick >>> 0;
  const size = spec.size >>> 0;
  switch (mutation) {
    case "valid":
      return done("valid", "");
    case "missing-required":
    case "null-required": {
      const fields = entry.fields.filter((field) => field.required);
      if (fields.length === 0) return done("valid", "no required field");
      const field = fields[pick % fields.length];
      if (mutation === "missing-required") deleteAt(params, field.path);
      else setAt(params, field.path, null);
      return done(mutation, field.path.join("."));
    }
    case "wrong-type": {
      if (entry.fields.length === 0) return done("valid", "no field");
      const field = entry.fields[pick % entry.fields.length];
      const candidates = WRONG_VALUES.filter((candidate) => !admits(field.types, candidate));
      if (candidates.length === 0) return done("valid", `${field.path.join(".")} admits any type`);
      const wrong = candidates[Math.floor(pick / entry.fields.length) % candidates.length];
      setAt(params, field.path, structuredClone(wrong.value));
      return done(mutation, `${field.path.join(".")}=${JSON.stringify(wrong.value)}`);
    }
    case "unknown-enum": {
      const fields = entry.fields.filter((field) => field.enum && field.enum.length > 0);
      if (fields.length === 0) return done("valid", "no enum field");
      const field = fields[pick % fields.length];
      setAt(params, field.path, "fuzz-unknown-variant");
      return done(mutation, field.path.join("."));
    }
    case "extra-fields": {
      const variant = pick % EXTRA_FIELD_VARIANTS;
      if (variant === 0) params.fuzzExtra = { n: 1, s: "extra" };
      else if (variant === 1) defineOwn(params, "__proto__", { polluted: true });
      else if (variant === 2) defineOwn(params, "constructor", { prototype: { polluted: true } });
      else if (variant === 3) {
        const objects = entry.fields.filter((field) => isPlainObject(getAt(params, field.path)));
        if (objects.length === 0) params.fuzzExtra = null;
        else getAt(params, objects[Math.floor(pick / EXTRA_FIELD_VARIANTS) % objects.length].path).fuzzNested = [1, "two", { three: 3 }];
      } else if (variant === 4) message.jsonrpc = "2.0";
      else message.fuzzEnvelope = { at: "top" };
      return done(mutation, ["params.fuzzExtra", "params.__proto__", "params.constructor", "nested", "jsonrpc", "envelope"][variant]);
    }
    case "deep-nesting":
      return buildDeep(entry, message, params, pick, size);
    case "huge-string": {
      const bytes = bySize(HUGE_BYTES, size);
      const strings = entry.fields.filter((field) => typeof getAt(params, field.path) === "string");
      const filler = HUGE_UNIT.repeat(Math.floor(bytes / HUGE_UNIT_BYTES));
      if (strings.length === 0 || pick % (strings.length + 1) === strings.length) {
        params.fuzzHuge = filler;
        return done(mutation, `params.fuzzHuge (${bytes} B)`);
      }
      const field = strings[pick % (strings.length + 1)];
      // The original value stays in front (a delta keeps its marker).
      setAt(params, field.path, getAt(params, field.path) + filler);
      return done(mutation, `${field.path.join(".")} (${bytes} B)`);
    }
    case "params-missing":
      delete message.params;
      return done(mutation, "");
    case "params-null":
      message.params = null;
      return done(mutation, "");
    case "params-array":
      message.params = pick % 2 === 0 ? [] : [params];
      return done(mutation, pick % 2 === 0 ? "[]" : "[params]");
    case "params-string":
      message.params = pick % 2 === 0 ? "" : "params";
      return done(mutation, JSON.stringify(message.params));
    case "unknown-method": {
      const variant = pick % UNKNOWN_METHOD_VARIANTS;
      message.method = [`fuzz/unknown/${entry.kind}`, entry.method.toUpperCase(), `${entry.method}/fuzz`, ` ${entry.method}`, ""][variant];
      return done(mutation, JSON.stringify(message.method));
    }
    case "bad-id":
      return buildBadId(entry, message, pick, size);
    default:
      throw new Error(`unknown mutation ${mutation}`);
  }
}

/** Whether a message is a server request by its keys: a method, and an id of a type a reply can echo. */
function expectsReply(message) {
  return typeof message?.method === "string" && (typeof message.id === "string" || typeof message.id === "number") && message.id !== SPLICE;
}

/** The request id of case `seq`: integers and strings alternate (a reply must echo the type). */
export function requestIdFor(seq) {
  return seq % 2 === 0 ? 7_000_000 + seq : `fz-${seq}`;
}

/** How many distinct variants `pick` selects among for this entry and mutation (for enumeration). */
export function variantCount(entry, mutation) {
  switch (mutation) {
    case "missing-required":
    case "null-required":
      return Math.max(1, entry.fields.filter((field) => field.required).length);
    case "wrong-type":
      return Math.max(1, entry.fields.length);
    case "unknown-enum":
      return Math.max(1, entry.fields.filter((field) => field.enum && field.enum.length > 0).length);
    case "extra-fields":
      return EXTRA_FIELD_VARIANTS;
    case "deep-nesting":
      return DEEP_VARIANTS * 2;
    case "huge-string":
      return entry.fields.length + 1;
    case "params-array":
    case "params-string":
      return 2;
    case "unknown-method":
      return UNKNOWN_METHOD_VARIANTS;
    case "bad-id":
      return BAD_IDS.length;
    case "not-json":
      return NOT_JSON.length + 1;
    case "not-an-object":
      return NOT_AN_OBJECT.length;
    case "unclassifiable":
      return 6;
    case "stray-reply":
      return 4;
    case "method-wrong-type":
      return 4;
    default:
      return 1;
  }
}

/**
 * Every case once, in a fixed order, for running in rotation: each method mutation of each entry
 * with each of its variants at the smallest size, each line mutation's variants, and a few heavy
 * cases (100 000-deep nesting, multi-MB strings, an oversize line) on a notification that lands in
 * the live turn and on a server request.
 */
export function enumerateSpecs(entries) {
  const specs = [];
  entries.forEach((entry, index) => {
    for (const mutation of METHOD_MUTATIONS) {
      for (let pick = 0; pick < variantCount(entry, mutation); pick++) specs.push({ entry: index, mutation, pick, size: 0 });
    }
  });
  for (const mutation of LINE_MUTATIONS) {
    for (let pick = 0; pick < variantCount(entries[0], mutation); pick++) specs.push({ entry: 0, mutation, pick, size: 0 });
  }
  const heavy = ["item/agentMessage/delta", "turn/completed", "item/tool/call"].map((method) => entries.findIndex((entry) => entry.method === method));
  for (const index of heavy) {
    for (let pick = 0; pick < DEEP_VARIANTS * 2; pick++) specs.push({ entry: index, mutation: "deep-nesting", pick, size: HEAVIEST_SIZE });
    specs.push({ entry: index, mutation: "huge-string", pick: 0, size: HEAVIEST_SIZE });
  }
  specs.push({ entry: heavy[0], mutation: "bad-id", pick: BAD_IDS.indexOf("huge-string"), size: HEAVIEST_SIZE });
  return specs;
}

function buildDeep(entry, message, params, pick, size) {
  const depth = bySize(DEPTHS, size);
  const variant = pick % DEEP_VARIANTS;
  const shape = Math.floor(pick / DEEP_VARIANTS) % 2 === 0 ? "array" : "object";
  const deep = deepText(depth, shape);
  let where;
  if (variant === 0 && entry.fields.length > 0) {
    const field = entry.fields[Math.floor(pick / (DEEP_VARIANTS * 2)) % entry.fields.length];
    setAt(params, field.path, SPLICE);
    where = field.path.join(".");
  } else if (variant <= 1) {
    params.fuzzDeep = SPLICE;
    where = "params.fuzzDeep";
  } else if (variant === 2) {
    message.params = SPLICE;
    where = "params";
  } else if (variant === 3) {
    // No method, no id: a message no rule classifies.
    return {
      mutation: "deep-nesting",
      detail: `whole message, no method (${shape}, depth ${depth})`,
      method: undefined,
      line: `{"fuzzDeep":${deep}}`,
      message: undefined,
      expectsReply: false,
    };
  } else {
    message.id = SPLICE;
    where = "id";
  }
  const answerable = expectsReply(message);
  const line = JSON.stringify(message).replace(JSON.stringify(SPLICE), deep);
  return { mutation: "deep-nesting", detail: `${where} (${shape}, depth ${depth})`, method: entry.method, line, message: undefined, expectsReply: answerable };
}

function buildBadId(entry, message, pick, size) {
  const variant = BAD_IDS[pick % BAD_IDS.length];
  const ordered = (id) => ({ id, method: message.method, ...(message.params === undefined ? {} : { params: message.params }) });
  const done = (built, spliced) => ({
    mutation: "bad-id",
    detail: `${entry.kind} id ${variant}`,
    method: entry.method,
    line: spliced ?? JSON.stringify(built),
    message: spliced === undefined ? built : undefined,
    // 1e400 parses to Infinity, which no reply can echo: unclassifiable, never answered.
    expectsReply: spliced === undefined ? expectsReply(built) : false,
  });
  switch (variant) {
    case "null":
      return done(ordered(null));
    case "object":
      return done(ordered({ id: 1 }));
    case "boolean":
      return done(ordered(true));
    case "array":
      return done(ordered([1]));
    case "float":
      return done(ordered(1.5 + (typeof message.id === "number" ? message.id : 0)));
    case "huge-string":
      return done(ordered(`fz-huge-${message.id ?? message.emittedAtMs}-${"i".repeat(bySize(HUGE_BYTES, size))}`));
    case "overflow": {
      // 1e400 parses to Infinity, which no reply can echo.
      const built = ordered(SPLICE);
      return done(built, JSON.stringify(built).replace(JSON.stringify(SPLICE), "1e400"));
    }
    case "absent": {
      const { id: _dropped, ...rest } = ordered(0);
      return done(rest);
    }
    case "empty-string":
      return done(ordered(""));
    default:
      return done(ordered(-1 - (typeof message.id === "number" ? message.id : 0)));
  }
}

function buildLine(entry, spec, seq, ids) {
  const pick = spec.pick >>> 0;
  const line = (text, detail, message) => ({ mutation: spec.mutation, detail, method: undefined, line: text, message, expectsReply: false });
  switch (spec.mutation) {
    case "not-json": {
      if (pick % (NOT_JSON.length + 1) === NOT_JSON.length) {
        // A valid message cut in half.
        const whole = JSON.stringify({ method: entry.method, emittedAtMs: seq, params: instantiate(entry, ids) });
        return line(whole.slice(0, Math.max(1, Math.floor(whole.length / 2))), "truncated message");
      }
      const text = NOT_JSON[pick % (NOT_JSON.length + 1)];
      return line(text, JSON.stringify(text));
    }
    case "not-an-object": {
      const text = NOT_AN_OBJECT[pick % NOT_AN_OBJECT.length];
      return line(text, text, JSON.parse(text));
    }
    case "oversize-line": {
      const head = `{"method":"item/agentMessage/delta","emittedAtMs":${seq},"params":{"threadId":"${ids.thread}","turnId":"${ids.turn}","itemId":"${ids.item}","delta":"`;
      const tail = '"}}';
      const bytes = LINE_CAP_BYTES + 1 + (pick % 1024);
      return line(head + "o".repeat(bytes - head.length - tail.length) + tail, `${bytes} B`);
    }
    case "unclassifiable": {
      const params = instantiate(entry, ids);
      const variants = [
        {},
        { params },
        { result: params },
        { id: 9_100_000 + seq },
        { error: { code: -32600, message: "no id" } },
        { emittedAtMs: seq, params: null },
      ];
      const message = variants[pick % variants.length];
      return line(JSON.stringify(message), Object.keys(message).join("+") || "{}", message);
    }
    case "stray-reply": {
      const variants = [
        { id: 9_000_000 + seq, result: {} },
        { id: `stray-${seq}`, error: { code: -32603, message: "stray" } },
        { id: 9_000_000 + seq, result: null },
        { id: `stray-${seq}`, error: null },
      ];
      const message = variants[pick % variants.length];
      return line(JSON.stringify(message), Object.keys(message).join("+"), message);
    }
    case "method-wrong-type": {
      const params = instantiate(entry, ids);
      const variants = [
        { method: 42, params },
        { method: null, emittedAtMs: seq },
        { method: [entry.method], params },
        { method: {}, id: 9_200_000 + seq, params },
      ];
      const message = variants[pick % variants.length];
      return line(JSON.stringify(message), `method ${JSON.stringify(message.method)}`, message);
    }
    default:
      throw new Error(`unknown line mutation ${spec.mutation}`);
  }
}

/**
 * The entry's template (a fresh copy) with the live ids in place of the placeholders, and `ids.text`
 * (default "delta-v") in place of the delta texts. Ids and text must need no JSON escaping.
 */
export function instantiate(entry, ids) {
  let text = entry.templateText ?? (entry.templateText = JSON.stringify(entry.params));
  text = text
    .replaceAll(ID_PLACEHOLDERS.thread, ids.thread)
    .replaceAll(ID_PLACEHOLDERS.turn, ids.turn)
    .replaceAll(ID_PLACEHOLDERS.item, ids.item)
    .replaceAll(ID_PLACEHOLDERS.text, ids.text ?? "delta-v");
  return JSON.parse(text);
}

/** `[`×depth `]`×depth, or `{"d":`×depth `0` `}`×depth: JSON text nested `depth` levels. */
export function deepText(depth, shape) {
  return shape === "array" ? "[".repeat(depth) + "]".repeat(depth) : `${'{"d":'.repeat(depth)}0${"}".repeat(depth)}`;
}

function admits(types, candidate) {
  if (types.length === 0) return true;
  if (candidate.type === "integer") return types.includes("integer") || types.includes("number");
  return types.includes(candidate.type);
}

function getAt(root, path) {
  let node = root;
  for (const key of path) node = node?.[key];
  return node;
}

function setAt(root, path, value) {
  const parent = getAt(root, path.slice(0, -1));
  if (parent && typeof parent === "object") defineOwn(parent, path.at(-1), value);
}

function deleteAt(root, path) {
  const parent = getAt(root, path.slice(0, -1));
  if (parent && typeof parent === "object") delete parent[path.at(-1)];
}

/** Sets an own enumerable property, even `__proto__` (an assignment would set the prototype). */
function defineOwn(target, key, value) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function isPlainObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
