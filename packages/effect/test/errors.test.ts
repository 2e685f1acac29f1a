// Every code of core's CodexRpcError becomes its tagged error, with core's error as `cause`.
import {
  CodexRpcError,
  type CodexRpcErrorCode,
  ConnectionClosedError,
  InvalidOptionError,
  MethodNotSupportedError,
  ProtocolError,
  ProtocolVersionMismatchError,
  RequestAbortedError,
  RequestTimeoutError,
  ServerError,
  ServerOverloadedError,
  TurnTimeoutError,
  ValidationFailedError,
} from "@codex-rpc/core";
import { it } from "@effect/vitest";
import { Effect, Exit } from "effect";
import { describe, expect } from "vitest";
import { fromCodexRpcError, fromPromise, TAG_OF_CODE } from "../src/index.js";

const server = new ServerError("thread/start", 1, -32600, "bad", { detail: 1 });
/** One core error of each code, built as core builds it. */
const EXAMPLES: Record<CodexRpcErrorCode, CodexRpcError> = {
  CONNECTION_CLOSED: new ConnectionClosedError({ reason: "exit", exitCode: null, signal: "SIGKILL", stderrTail: ["bye"] }, { method: "turn/start", id: 2 }),
  REQUEST_TIMEOUT: new RequestTimeoutError("thread/list", 3, 50),
  REQUEST_ABORTED: new RequestAbortedError("thread/list", 4, "stop"),
  SERVER_ERROR: server,
  SERVER_OVERLOADED: new ServerOverloadedError("thread/start", 5, "Server overloaded", null, 4),
  METHOD_NOT_SUPPORTED: new MethodNotSupportedError(server, "0.1.0", "0.169.0"),
  PROTOCOL_VERSION_MISMATCH: new ProtocolVersionMismatchError("0.1.0", "0.169.0"),
  VALIDATION_FAILED: new ValidationFailedError("thread/read", "result", [{ path: "/x" }]),
  PROTOCOL_ERROR: new ProtocolError("turn/start", "result.turn.id is missing"),
  TURN_TIMEOUT: new TurnTimeoutError("thread-1", "turn-1", 1_000),
  INVALID_OPTION: new InvalidOptionError("token", "has a line break"),
  HANDLER_ALREADY_REGISTERED: new CodexRpcError("HANDLER_ALREADY_REGISTERED", "twice"),
  TURN_NOT_RUNNING: new CodexRpcError("TURN_NOT_RUNNING", "ended"),
  THREAD_BUSY: new CodexRpcError("THREAD_BUSY", "busy"),
  OUTPUT_INVALID: new CodexRpcError("OUTPUT_INVALID", "not json"),
  INVALID_HANDLER_RESULT: new CodexRpcError("INVALID_HANDLER_RESULT", "bigint"),
  QUEUE_OVERFLOW: new CodexRpcError("QUEUE_OVERFLOW", "behind"),
  BINARY_NOT_FOUND: new CodexRpcError("BINARY_NOT_FOUND", "tried"),
  CONNECT_FAILED: new CodexRpcError("CONNECT_FAILED", "refused"),
  UNAUTHORIZED: new CodexRpcError("UNAUTHORIZED", "401"),
  UNSUPPORTED: new CodexRpcError("UNSUPPORTED", "no"),
};

describe("tagged errors", () => {
  it.each(Object.entries(EXAMPLES))("%s becomes its tagged error, core's error as cause", (code, error) => {
    const tagged = fromCodexRpcError(error);
    expect(tagged?._tag).toBe(TAG_OF_CODE[code as CodexRpcErrorCode]);
    expect([tagged?.code, tagged?.message, tagged?.cause]).toEqual([code, error.message, error]);
  });

  it("copies the fields a program acts on", () => {
    expect(fromCodexRpcError(EXAMPLES.CONNECTION_CLOSED)).toMatchObject({
      reason: "exit",
      exitCode: null,
      signal: "SIGKILL",
      stderrTail: ["bye"],
      method: "turn/start",
    });
    expect(fromCodexRpcError(EXAMPLES.SERVER_ERROR)).toMatchObject({ method: "thread/start", rpcCode: -32600, rpcMessage: "bad", data: { detail: 1 } });
    expect(fromCodexRpcError(EXAMPLES.SERVER_OVERLOADED)).toMatchObject({ rpcCode: -32001, attempts: 4 });
    expect(fromCodexRpcError(EXAMPLES.METHOD_NOT_SUPPORTED)).toMatchObject({ serverVersion: "0.1.0", protocolVersion: "0.169.0" });
    expect(fromCodexRpcError(EXAMPLES.TURN_TIMEOUT)).toMatchObject({ threadId: "thread-1", turnId: "turn-1", timeoutMs: 1_000 });
  });

  it.effect("catchTag matches them; anything that is not a CodexRpcError is a defect", () =>
    Effect.gen(function* () {
      const caught = yield* fromPromise(() => Promise.reject(EXAMPLES.REQUEST_TIMEOUT)).pipe(
        Effect.catchTag("RequestTimeout", (error) => Effect.succeed(error.timeoutMs)),
      );
      expect(caught).toBe(50);
      const exit = yield* Effect.exit(fromPromise(() => Promise.reject(new TypeError("bug"))));
      expect(Exit.isFailure(exit) && Exit.hasDies(exit)).toBe(true);
      // A structured code without its class (core never builds one) is a defect too, not a wrong tag.
      expect(fromCodexRpcError(new CodexRpcError("SERVER_ERROR", "plain"))).toBeUndefined();
    }),
  );
});
