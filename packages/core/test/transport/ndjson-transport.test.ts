import { firstValueFrom, toArray } from "rxjs";
import { describe, expect, it, vi } from "vitest";
import { ConnectionClosedError, type TransportCloseInfo } from "../../src/errors/errors.js";
import type { JsonRpcMessage } from "../../src/framing/json-rpc-message.js";
import { createNdjsonTransport, type NdjsonInputSink, type NdjsonTransportOptions } from "../../src/transport/ndjson-transport.js";
import type { TransportDiagnostic } from "../../src/transport/transport.js";

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

function line(message: unknown): Uint8Array {
  return utf8.encode(`${JSON.stringify(message)}\n`);
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A byte channel under the test's control: push bytes in, see what was written, end it. */
function fakeChannel(overrides: Partial<NdjsonTransportOptions> = {}) {
  let sink!: NdjsonInputSink;
  const ended = deferred<TransportCloseInfo>();
  const written: unknown[] = [];
  const defaultShutdown = vi.fn(async (): Promise<TransportCloseInfo> => {
    const info: TransportCloseInfo = { reason: "exit", exitCode: 0, signal: null, stderrTail: ["bye"] };
    sink.end();
    ended.resolve(info);
    return info;
  });
  const transport = createNdjsonTransport({
    input: (s) => {
      sink = s;
    },
    write: (bytes) => {
      written.push(JSON.parse(utf8Decoder.decode(bytes)));
    },
    shutdown: defaultShutdown,
    ended: ended.promise,
    eofGraceMs: 20,
    ...overrides,
  });
  return { transport, sink, ended, written, shutdown: overrides.shutdown ?? defaultShutdown };
}

function collect<T>(observable: { subscribe(observer: { next(v: T): void; complete(): void }): unknown }) {
  const values: T[] = [];
  let completed = false;
  observable.subscribe({ next: (v) => values.push(v), complete: () => (completed = true) });
  return {
    values,
    get completed() {
      return completed;
    },
  };
}

describe("createNdjsonTransport", () => {
  it("delivers messages synchronously and in order, across chunk boundaries", () => {
    const { transport, sink } = fakeChannel();
    const received = collect<JsonRpcMessage>(transport.messages$);
    const bytes = new Uint8Array([...line({ id: 1, result: "a" }), ...line({ method: "n", params: { s: "é" } }), ...line({ id: 2, result: "b" })]);
    sink.data(bytes.subarray(0, 30));
    sink.data(bytes.subarray(30));
    expect(received.values).toEqual([
      { id: 1, result: "a" },
      { method: "n", params: { s: "é" } },
      { id: 2, result: "b" },
    ]);
  });

  it("buffers messages that arrive before the first subscriber and replays them first, in order", () => {
    const { transport, sink } = fakeChannel();
    sink.data(line({ method: "early/1" }));
    sink.data(line({ method: "early/2" }));
    const received = collect<JsonRpcMessage>(transport.messages$);
    sink.data(line({ method: "late" }));
    expect(received.values.map((m) => (m as { method: string }).method)).toEqual(["early/1", "early/2", "late"]);
  });

  it("closes with the channel's info when it ends: messages complete, closed resolves once", async () => {
    const { transport, sink, ended } = fakeChannel();
    const received = collect<JsonRpcMessage>(transport.messages$);
    sink.data(line({ id: 1, result: null }));
    sink.end();
    const info: TransportCloseInfo = { reason: "exit", exitCode: 3, signal: null, stderrTail: ["boom"] };
    ended.resolve(info);
    await expect(transport.closed).resolves.toEqual(info);
    expect(received.completed).toBe(true);
    expect(received.values).toHaveLength(1);
  });

  it("`await using` closes it when the block ends, through the same close() (called once)", async () => {
    const { transport, shutdown } = fakeChannel();
    {
      await using _open = transport;
    }
    expect(shutdown).toHaveBeenCalledTimes(1);
    await expect(transport.closed).resolves.toMatchObject({ reason: "closed" });
  });

  it("after the channel ends, still delivers what was on its way before closing", async () => {
    const { transport, sink, ended } = fakeChannel({ eofGraceMs: 5_000 });
    const received = collect<JsonRpcMessage>(transport.messages$);
    ended.resolve({ reason: "exit", exitCode: 0, signal: null });
    await Promise.resolve();
    sink.data(line({ id: 9, result: "last words" }));
    sink.end();
    await expect(transport.closed).resolves.toMatchObject({ reason: "exit", exitCode: 0 });
    expect(received.values).toEqual([{ id: 9, result: "last words" }]);
  });

  it("closes with reason eof when the input ends and the channel does not report its end, then shuts it down", async () => {
    const { transport, sink, shutdown } = fakeChannel({
      shutdown: vi.fn(async () => ({ reason: "exit", exitCode: null, signal: "SIGTERM" }) as TransportCloseInfo),
      completeCloseInfo: (info) => ({ ...info, stderrTail: ["tail line"] }),
    });
    sink.data(line({ id: 1, result: null }));
    sink.data(utf8.encode('{"id":2,"result":"no newline"}'));
    sink.end();
    const received = await firstValueFrom(transport.messages$.pipe(toArray()));
    expect(received).toEqual([
      { id: 1, result: null },
      { id: 2, result: "no newline" },
    ]);
    await expect(transport.closed).resolves.toEqual({ reason: "eof", stderrTail: ["tail line"] });
    await transport.close(); // waits for the background shutdown
    expect(shutdown).toHaveBeenCalledTimes(1);
  });

  it("closes with reason error when the input fails", async () => {
    const { transport, sink, shutdown } = fakeChannel({
      shutdown: vi.fn(async () => ({ reason: "exit", exitCode: 0 }) as TransportCloseInfo),
    });
    const failure = new Error("read EIO");
    sink.error(failure);
    await expect(transport.closed).resolves.toEqual({ reason: "error", error: failure });
    await transport.close();
    expect(shutdown).toHaveBeenCalledTimes(1);
    await expect(transport.send({ method: "x" })).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it("an input function that throws closes the transport with reason error", async () => {
    const failure = new Error("no stdout");
    const transport = createNdjsonTransport({
      input: () => {
        throw failure;
      },
      write: () => {},
      shutdown: async () => ({ reason: "exit", exitCode: 1 }),
      ended: new Promise(() => {}),
    });
    await expect(transport.closed).resolves.toMatchObject({ reason: "error", error: failure });
  });

  it("close() shuts down once, reports reason closed with the shutdown's details, and is idempotent", async () => {
    const { transport, shutdown } = fakeChannel();
    const received = collect<JsonRpcMessage>(transport.messages$);
    const first = transport.close();
    const second = transport.close();
    expect(second).toBe(first);
    await first;
    expect(shutdown).toHaveBeenCalledTimes(1);
    await expect(transport.closed).resolves.toEqual({ reason: "closed", exitCode: 0, signal: null, stderrTail: ["bye"] });
    expect(received.completed).toBe(true);
    await transport.close();
    expect(shutdown).toHaveBeenCalledTimes(1);
  });

  it("close() during the EOF grace period wins: reason closed, not eof", async () => {
    const { transport, sink } = fakeChannel({
      eofGraceMs: 10,
      shutdown: async () => {
        await new Promise((resolve) => setTimeout(resolve, 50)); // slower than the grace period
        return { reason: "exit", exitCode: 0 };
      },
    });
    sink.end();
    await transport.close();
    await expect(transport.closed).resolves.toEqual({ reason: "closed", exitCode: 0 });
  });

  it("close() after the channel ended by itself resolves without shutting down", async () => {
    const { transport, sink, ended, shutdown } = fakeChannel();
    sink.end();
    ended.resolve({ reason: "exit", exitCode: 1 });
    await transport.closed;
    await transport.close();
    expect(shutdown).not.toHaveBeenCalled();
  });

  it("close() still resolves when shutdown fails", async () => {
    const failure = new Error("kill EPERM");
    const { transport } = fakeChannel({ shutdown: async () => Promise.reject(failure) });
    await transport.close();
    await expect(transport.closed).resolves.toEqual({ reason: "closed", error: failure });
  });

  it("send rejects with ConnectionClosedError once closed, and while closing", async () => {
    const { transport } = fakeChannel();
    const closing = transport.close();
    await expect(transport.send({ method: "during" })).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
    await closing;
    const error = await transport.send({ method: "after" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect((error as ConnectionClosedError).close.reason).toBe("closed");
  });

  it("writes sends in call order, one at a time, when writes are slow and uneven", async () => {
    const written: number[] = [];
    let active = 0;
    let maxActive = 0;
    const { transport } = fakeChannel({
      write: async (bytes) => {
        active++;
        maxActive = Math.max(maxActive, active);
        const { id } = JSON.parse(utf8Decoder.decode(bytes)) as { id: number };
        await new Promise((resolve) => setTimeout(resolve, (id * 7) % 5));
        written.push(id);
        active--;
      },
    });
    const sends = Array.from({ length: 50 }, (_, id) => transport.send({ id, method: "m" }));
    await Promise.all(sends);
    expect(written).toEqual(Array.from({ length: 50 }, (_, id) => id));
    expect(maxActive).toBe(1);
  });

  it("close() lets queued sends finish writing before it shuts down", async () => {
    const order: string[] = [];
    const { transport } = fakeChannel({
      write: async (bytes) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push(`write ${(JSON.parse(utf8Decoder.decode(bytes)) as { method: string }).method}`);
      },
      shutdown: async () => {
        order.push("shutdown");
        return { reason: "exit", exitCode: 0 };
      },
    });
    const sends = [transport.send({ method: "a" }), transport.send({ method: "b" })];
    await transport.close();
    await Promise.all(sends);
    expect(order).toEqual(["write a", "write b", "shutdown"]);
  });

  it("a failing write rejects only its own send", async () => {
    const { transport, written } = fakeChannel({
      writeFailureCloseWaitMs: 10,
      write: (bytes) => {
        const message = JSON.parse(utf8Decoder.decode(bytes)) as { method: string };
        if (message.method === "bad") throw new Error("EPIPE");
        written.push(message);
      },
    });
    const results = await Promise.allSettled([transport.send({ method: "a" }), transport.send({ method: "bad" }), transport.send({ method: "c" })]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(written).toEqual([{ method: "a" }, { method: "c" }]);
  });

  it("a write that fails before the channel's end is seen waits for it, and rejects with the typed close", async () => {
    const brokenPipe = Object.assign(new Error("Broken pipe (os error 32)"), { code: "EPIPE" });
    const { transport, sink, ended } = fakeChannel({ write: () => Promise.reject(brokenPipe), writeFailureCloseWaitMs: 5_000 });
    const sends = [transport.send({ id: 1, method: "initialize" }), transport.send({ method: "queued" })].map((sent) => sent.catch((error: unknown) => error));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const exitedAt = performance.now();
    sink.end();
    ended.resolve({ reason: "exit", exitCode: 1, signal: null, stderrTail: ["Error: CODEX_HOME points to a path that does not exist"] });
    const errors = await Promise.all(sends);
    expect(performance.now() - exitedAt).toBeLessThan(1_000); // the close ended the wait, not its bound
    for (const error of errors) {
      expect(error).toBeInstanceOf(ConnectionClosedError);
      expect((error as ConnectionClosedError).close).toEqual({
        reason: "exit",
        exitCode: 1,
        signal: null,
        stderrTail: ["Error: CODEX_HOME points to a path that does not exist"],
      });
    }
  });

  it("a write that fails while the channel stays up rejects with the write's own error after the bound", async () => {
    const failure = new Error("EAGAIN");
    let failNext = true;
    const { transport, written } = fakeChannel({
      writeFailureCloseWaitMs: 40,
      write: (bytes) => {
        if (failNext) {
          failNext = false;
          throw failure;
        }
        written.push(JSON.parse(utf8Decoder.decode(bytes)));
      },
    });
    const startedAt = performance.now();
    await expect(transport.send({ method: "first" })).rejects.toBe(failure);
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(35);
    await transport.send({ method: "second" }); // still open: the next write goes through
    expect(written).toEqual([{ method: "second" }]);
  });

  it("leaves no send unsettled when the channel ends with writes stuck", async () => {
    const { transport, sink, ended } = fakeChannel({ write: () => new Promise<void>(() => {}) });
    const sends = [transport.send({ method: "stuck" }), transport.send({ method: "queued" })];
    sink.end();
    ended.resolve({ reason: "exit", exitCode: null, signal: "SIGKILL" });
    const results = await Promise.allSettled(sends);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    for (const result of results) {
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(ConnectionClosedError);
      expect(((result as PromiseRejectedResult).reason as ConnectionClosedError).close.signal).toBe("SIGKILL");
    }
  });

  it("replays the last 100 diagnostics to a late subscriber, with adapter diagnostics in the same stream", async () => {
    const { transport, sink, ended } = fakeChannel();
    for (let i = 0; i < 150; i++) sink.data(utf8.encode(`garbage ${i}\n`));
    transport.reportDiagnostic({ kind: "stderr", message: "WARN something" });
    const seen = collect<TransportDiagnostic>(transport.diagnostics$);
    expect(seen.values).toHaveLength(100);
    expect(seen.values[0]).toMatchObject({ kind: "invalid-json", excerpt: "garbage 51" });
    expect(seen.values[99]).toEqual({ kind: "stderr", message: "WARN something" });
    sink.end();
    ended.resolve({ reason: "exit", exitCode: 0 });
    await transport.closed;
    expect(seen.completed).toBe(true);
  });

  it("a subscriber that arrives after the close still gets the buffered messages, then completion", async () => {
    const { transport, sink, ended } = fakeChannel();
    sink.data(line({ id: 1, result: "kept" }));
    sink.end();
    ended.resolve({ reason: "exit", exitCode: 0 });
    await transport.closed;
    await expect(firstValueFrom(transport.messages$.pipe(toArray()))).resolves.toEqual([{ id: 1, result: "kept" }]);
  });

  describe("with a ReadableStream input", () => {
    it("reads messages from the stream and closes on its end", async () => {
      const chunks = [line({ id: 1, result: 1 }), utf8.encode('{"id":2,'), utf8.encode('"result":2}\n')];
      const input = new ReadableStream<Uint8Array>({
        pull(controller) {
          const chunk = chunks.shift();
          if (chunk) controller.enqueue(chunk);
          else controller.close();
        },
      });
      const ended = deferred<TransportCloseInfo>();
      const transport = createNdjsonTransport({ input, write: () => {}, shutdown: async () => ({ reason: "exit" }), ended: ended.promise, eofGraceMs: 10 });
      const received = await firstValueFrom(transport.messages$.pipe(toArray()));
      expect(received).toEqual([
        { id: 1, result: 1 },
        { id: 2, result: 2 },
      ]);
      await expect(transport.closed).resolves.toEqual({ reason: "eof" });
    });

    it("cancels a pending read when it closes, so nothing is left waiting", async () => {
      const cancelled = deferred<unknown>();
      const input = new ReadableStream<Uint8Array>({
        pull: () => new Promise<void>(() => {}), // never produces anything
        cancel: (reason) => cancelled.resolve(reason),
      });
      const transport = createNdjsonTransport({
        input,
        write: () => {},
        shutdown: async () => ({ reason: "exit", exitCode: 0 }),
        ended: new Promise(() => {}),
      });
      await transport.close();
      await cancelled.promise;
      await expect(transport.closed).resolves.toMatchObject({ reason: "closed" });
    });

    it("a stream error closes the transport with reason error", async () => {
      const failure = new Error("socket reset");
      const input = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(line({ method: "before" }));
          controller.error(failure);
        },
      });
      const transport = createNdjsonTransport({ input, write: () => {}, shutdown: async () => ({ reason: "exit" }), ended: new Promise(() => {}) });
      const received = collect<JsonRpcMessage>(transport.messages$);
      await expect(transport.closed).resolves.toMatchObject({ reason: "error", error: failure });
      expect(received.completed).toBe(true);
    });
  });
});

describe("over a pair of web streams", () => {
  it("reads messages from a ReadableStream and writes ordered lines to a WritableStream", async () => {
    const { createNdjsonTransport, encodeNdjsonLine, streamWriter, NdjsonDecoder } = await import("../../src/transport.js");
    const written: unknown[] = [];
    const decoder = new NdjsonDecoder({ onMessage: (message) => written.push(message) });
    const output = new WritableStream<Uint8Array>({
      // A slow sink: writes must still land in send order.
      write: (chunk) => new Promise<void>((resolve) => setTimeout(() => (decoder.push(chunk), resolve()), Math.random() * 3)),
    });
    let push!: ReadableStreamDefaultController<Uint8Array>;
    const input = new ReadableStream<Uint8Array>({ start: (controller) => void (push = controller) });
    let endWith!: (info: { reason: "closed" }) => void;
    const ended = new Promise<{ reason: "closed" }>((resolve) => (endWith = resolve));
    const transport = createNdjsonTransport({
      input,
      write: streamWriter(output),
      shutdown: async () => (push.close(), endWith({ reason: "closed" }), ended),
      ended,
    });
    const received: unknown[] = [];
    transport.messages$.subscribe((message) => received.push(message));
    push.enqueue(encodeNdjsonLine({ method: "a", params: { n: 1 } }));
    push.enqueue(encodeNdjsonLine({ method: "b", params: { n: 2 } }));
    await Promise.all(Array.from({ length: 20 }, (_, id) => transport.send({ id, method: "m" })));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(received).toEqual([
      { method: "a", params: { n: 1 } },
      { method: "b", params: { n: 2 } },
    ]);
    expect(written).toEqual(Array.from({ length: 20 }, (_, id) => ({ id, method: "m" })));
    await transport.close();
  });
});
