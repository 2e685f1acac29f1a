// What a user's server-request handler may do besides answering well: throw or reject with values
// that are no Error (Object.create(null), an object whose toString throws, a Symbol, undefined, a
// string, a revoked Proxy …), or return values JSON cannot carry (BigInt, a cyclic object, a Symbol,
// a function, a toJSON that throws). The client must answer each request exactly once: an error
// (-32603 unless the handler chose a code with JsonRpcReplyError) for all of these, a result for
// JSON values. Shared by the schema fuzzer and tools/malformed-turns.mjs.
import { JsonRpcReplyError } from "@codex-rpc/core";

/** -32603, what a failing handler's request is answered with. */
export const INTERNAL_ERROR = -32603;

function nullPrototype() {
  return Object.create(null);
}
function throwingToString() {
  return {
    toString: () => {
      throw new Error("toString throws");
    },
    valueOf: () => {
      throw new Error("valueOf throws");
    },
  };
}
function throwingToPrimitive() {
  return {
    [Symbol.toPrimitive]: () => {
      throw new Error("toPrimitive throws");
    },
  };
}
function errorWithThrowingMessage() {
  const error = new Error("shadowed");
  Object.defineProperty(error, "message", {
    get: () => {
      throw new Error("message getter throws");
    },
  });
  return error;
}
function revokedProxy() {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}
function cyclic() {
  const value = { name: "cyclic" };
  value.self = value;
  return value;
}

/** Values thrown or rejected with. */
const THROWN = Object.freeze([
  ["Object.create(null)", nullPrototype],
  ["an object whose toString throws", throwingToString],
  ["an object whose Symbol.toPrimitive throws", throwingToPrimitive],
  ["a Symbol", () => Symbol("thrown")],
  ["undefined", () => undefined],
  ["a string", () => "thrown string"],
  ["null", () => null],
  ["a number", () => 42],
  ["an Error", () => new Error("plain error")],
  ["an Error whose message getter throws", errorWithThrowingMessage],
  ["a revoked Proxy", revokedProxy],
]);

/** Values returned (or resolved) that JSON cannot carry. */
const NOT_JSON = Object.freeze([
  ["a BigInt", () => 1n],
  ["an object holding a BigInt", () => ({ answers: {}, n: 1n })],
  ["a cyclic object", cyclic],
  ["a Symbol", () => Symbol("returned")],
  ["a function", () => function returned() {}],
  [
    "an object whose toJSON throws",
    () => ({
      toJSON: () => {
        throw new Error("toJSON throws");
      },
    }),
  ],
  ["a revoked Proxy", revokedProxy],
]);

/** Values returned that are JSON (undefined answers `null`). */
const JSON_VALUES = Object.freeze([
  ["{}", () => ({})],
  ["null", () => null],
  ["undefined", () => undefined],
  ["a string", () => "text"],
  ["an array", () => [1, "two"]],
]);

/**
 * Every outcome: `run()` does it (throws, or returns a value or a promise); `expect` is the reply:
 * `{ error: INTERNAL_ERROR }`, `{ error: "any" }` (a JsonRpcReplyError whose data JSON cannot carry:
 * its own code or -32603) or `{ result: <the JSON value> }`.
 */
export const HANDLER_OUTCOMES = Object.freeze([
  ...THROWN.map(([what, make]) => ({
    name: `throws ${what}`,
    run: () => {
      throw make();
    },
    expect: { error: INTERNAL_ERROR },
  })),
  ...THROWN.map(([what, make]) => ({ name: `rejects with ${what}`, run: () => Promise.reject(make()), expect: { error: INTERNAL_ERROR } })),
  ...NOT_JSON.map(([what, make]) => ({ name: `returns ${what}`, run: () => make(), expect: { error: INTERNAL_ERROR } })),
  ...NOT_JSON.map(([what, make]) => ({ name: `resolves to ${what}`, run: () => Promise.resolve(make()), expect: { error: INTERNAL_ERROR } })),
  {
    name: "returns a thenable whose then throws",
    run: () => ({
      then: () => {
        throw nullPrototype();
      },
    }),
    expect: { error: INTERNAL_ERROR },
  },
  {
    name: "throws a JsonRpcReplyError with BigInt data",
    run: () => {
      throw new JsonRpcReplyError(-32000, "chosen code", { n: 1n });
    },
    expect: { error: "any" },
  },
  {
    name: "rejects with a JsonRpcReplyError with cyclic data",
    run: () => Promise.reject(new JsonRpcReplyError(-32000, "chosen code", cyclic())),
    expect: { error: "any" },
  },
  {
    name: "throws a JsonRpcReplyError",
    run: () => {
      throw new JsonRpcReplyError(-32000, "chosen code");
    },
    expect: { error: -32000 },
  },
  ...JSON_VALUES.map(([what, make]) => ({ name: `returns ${what}`, run: () => make(), expect: { result: make() ?? null } })),
]);
