import { ReplaySubject, type Observable } from "rxjs";
import { ConnectionClosedError, type TransportCloseInfo } from "../errors/errors.js";
import { NdjsonDecoder, type NdjsonDecoderOptions } from "../framing/ndjson-decoder.js";
import { encodeNdjsonLine } from "../framing/ndjson-encoder.js";
import type { JsonRpcMessage } from "../framing/json-rpc-message.js";
import { MessageInbox } from "./message-inbox.js";
import { settlesWithin } from "../util/settles-within.js";
import { startTimer, type CancelTimer } from "../util/long-timer.js";
import { asyncDisposeSymbol } from "../util/dispose-symbols.js";
import type { Transport, TransportDiagnostic } from "./transport.js";

/** How many diagnostics a late subscriber to `diagnostics` still sees. */
const DIAGNOSTICS_REPLAY = 100;

/** Where a push-based input (e.g. Node `'data'` events) hands over its bytes. */
export interface NdjsonInputSink {
  data(chunk: Uint8Array): void;
  end(): void;
  error(error: unknown): void;
}

export interface NdjsonTransportOptions {
  /**
   * The bytes coming from the server: a web stream, or a function that is handed a sink to push
   * into (push-based sources such as Node `'data'` events are faster than web streams).
   */
  readonly input: ReadableStream<Uint8Array> | ((sink: NdjsonInputSink) => void);
  /** Writes one encoded line. Called one at a time, in send order; the next waits for this one. */
  readonly write: (bytes: Uint8Array) => Promise<void> | void;
  /**
   * Ends the channel (for a process: stdin end, then SIGTERM, then SIGKILL) and resolves once it
   * has ended. Called at most once: by `close()`, or after the transport closed on EOF or an
   * input error while the channel was still up.
   */
  readonly shutdown: () => Promise<TransportCloseInfo>;
  /** Resolves when the channel ends by itself (for a process: it exited). */
  readonly ended: Promise<TransportCloseInfo>;
  /** The longest line accepted, in bytes. Default 128 MiB. */
  readonly maxLineBytes?: number;
  /** A faster UTF-8 decoder for the runtime (see NdjsonDecoderOptions.decodeUtf8). */
  readonly decodeUtf8?: NdjsonDecoderOptions["decodeUtf8"];
  /** A cheap ASCII check for the runtime (see NdjsonDecoderOptions.isAscii). */
  readonly isAscii?: NdjsonDecoderOptions["isAscii"];
  /** A copy for bytes known to be ASCII (see NdjsonDecoderOptions.decodeAscii). */
  readonly decodeAscii?: NdjsonDecoderOptions["decodeAscii"];
  /** The input never writes to a chunk it has handed over (see NdjsonDecoderOptions.retainChunks). Default false. */
  readonly retainChunks?: boolean;
  /**
   * After the input ends, how long to wait for `ended` before closing with reason "eof"; after
   * `ended`, how long to wait for the input to drain. Default 1000 ms.
   */
  readonly eofGraceMs?: number;
  /** How long `close()` lets queued sends finish writing before it shuts down. Default 1000 ms. */
  readonly closeDrainMs?: number;
  /**
   * A write fails (a broken pipe, EPIPE) when the other end has just gone, often before the channel
   * reports its end. When a write fails while the transport is still open, the send waits this long
   * for the close, so it rejects with ConnectionClosedError (exit code, signal, stderr tail) rather
   * than the bare write error; if the transport stays open, the write error. Later sends wait
   * behind it. Default 2000 ms.
   */
  readonly writeFailureCloseWaitMs?: number;
  /** Adds what the adapter knows (e.g. the stderr tail) to a close the transport decides itself ("eof", "error"). */
  readonly completeCloseInfo?: (info: TransportCloseInfo) => TransportCloseInfo;
}

/** A Transport over an NDJSON byte channel, with a way for the adapter to add its own diagnostics. */
export interface NdjsonTransport extends Transport, AsyncDisposable {
  /** Emits an adapter diagnostic (e.g. a stderr line) on `diagnostics`. */
  reportDiagnostic(diagnostic: TransportDiagnostic): void;
}

/**
 * The part every byte-channel adapter (stdio, Deno, Bun, Unix socket) shares: framing, message
 * buffering until the connection subscribes, ordered writes, and deciding once how the channel
 * ended. The adapter supplies the bytes in, the bytes out, and how to end the channel.
 */
export function createNdjsonTransport(options: NdjsonTransportOptions): NdjsonTransport {
  return new NdjsonChannelTransport(options);
}

interface QueuedWrite {
  readonly bytes: Uint8Array;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

class NdjsonChannelTransport implements NdjsonTransport {
  readonly messages$: Observable<JsonRpcMessage>;
  readonly diagnostics$: Observable<TransportDiagnostic>;
  readonly closed: Promise<TransportCloseInfo>;

  readonly #options: NdjsonTransportOptions;
  readonly #eofGraceMs: number;
  readonly #writeFailureCloseWaitMs: number;
  readonly #decoder: NdjsonDecoder;
  readonly #inbox = new MessageInbox<JsonRpcMessage>();
  readonly #diagnostics = new ReplaySubject<TransportDiagnostic>(DIAGNOSTICS_REPLAY);

  #resolveClosed: (info: TransportCloseInfo) => void = () => {};
  #closeInfo: TransportCloseInfo | undefined;
  /** `close()` was called: it alone decides the close info from now on. */
  #closing = false;
  #closePromise: Promise<void> | undefined;
  #shutdownPromise: Promise<TransportCloseInfo> | undefined;
  #inputEnded = false;
  #endedInfo: TransportCloseInfo | undefined;
  #cancelGraceTimer: CancelTimer | undefined;
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;

  #writeQueue: QueuedWrite[] = [];
  #writeQueueHead = 0;
  #inFlightWrite: QueuedWrite | undefined;
  #writing = false;
  #onWritesDrained: (() => void) | undefined;

  constructor(options: NdjsonTransportOptions) {
    this.#options = options;
    this.#eofGraceMs = options.eofGraceMs ?? 1000;
    this.#writeFailureCloseWaitMs = options.writeFailureCloseWaitMs ?? 2000;
    this.#decoder = new NdjsonDecoder({
      maxLineBytes: options.maxLineBytes,
      decodeUtf8: options.decodeUtf8,
      isAscii: options.isAscii,
      decodeAscii: options.decodeAscii,
      retainChunks: options.retainChunks,
      onMessage: (message) => this.#inbox.deliver(message),
      onDiagnostic: (diagnostic) => this.#diagnostics.next(diagnostic),
    });
    this.closed = new Promise((resolve) => {
      this.#resolveClosed = resolve;
    });
    this.messages$ = this.#inbox.messages$;
    this.diagnostics$ = this.#diagnostics.asObservable();
    options.ended.then(
      (info) => this.#onEnded(info),
      (error: unknown) => this.#onEnded({ reason: "error", error }),
    );
    this.#startInput(options.input);
  }

  send(message: JsonRpcMessage): Promise<void> {
    if (this.#closeInfo) return Promise.reject(new ConnectionClosedError(this.#closeInfo));
    if (this.#closing) return Promise.reject(new ConnectionClosedError({ reason: "closed" }));
    let bytes: Uint8Array;
    try {
      bytes = encodeNdjsonLine(message);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<void>((resolve, reject) => {
      this.#writeQueue.push({ bytes, resolve, reject });
      if (!this.#writing) void this.#writeQueued();
    });
  }

  close(): Promise<void> {
    this.#closePromise ??= this.#closeOnce();
    return this.#closePromise;
  }

  /** `await using transport = …` closes it when the block ends (see `close()`). */
  async [asyncDisposeSymbol](): Promise<void> {
    await this.close();
  }

  reportDiagnostic(diagnostic: TransportDiagnostic): void {
    this.#diagnostics.next(diagnostic);
  }

  // --- incoming -------------------------------------------------------------------------------

  #startInput(input: NdjsonTransportOptions["input"]): void {
    const sink: NdjsonInputSink = {
      data: (chunk) => {
        if (!this.#inputEnded && !this.#closeInfo) this.#decoder.push(chunk);
      },
      end: () => this.#onInputEnd(),
      error: (error) => this.#onInputError(error),
    };
    if (typeof input === "function") {
      try {
        input(sink);
      } catch (error) {
        sink.error(error);
      }
    } else {
      void this.#readStream(input, sink);
    }
  }

  async #readStream(stream: ReadableStream<Uint8Array>, sink: NdjsonInputSink): Promise<void> {
    try {
      const reader = stream.getReader();
      this.#reader = reader;
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        sink.data(chunk.value);
      }
      sink.end();
    } catch (error) {
      sink.error(error);
    } finally {
      this.#reader = undefined;
    }
  }

  #onInputEnd(): void {
    if (this.#inputEnded || this.#closeInfo) return;
    this.#inputEnded = true;
    this.#decoder.end();
    if (this.#closing) return;
    if (this.#endedInfo) {
      this.#finish(this.#endedInfo);
      return;
    }
    // The output ended; the channel usually reports its end right after (a process exit).
    // If it does not, the server is gone for our purposes: close, and end the channel behind us.
    this.#startGraceTimer(() => {
      this.#finish(this.#completeCloseInfo({ reason: "eof" }));
      void this.#shutdownOnce();
    });
  }

  #onInputError(error: unknown): void {
    if (this.#inputEnded || this.#closeInfo) return;
    this.#inputEnded = true;
    if (this.#closing) return;
    if (this.#endedInfo) {
      this.#finish(this.#endedInfo);
      return;
    }
    this.#finish(this.#completeCloseInfo({ reason: "error", error }));
    void this.#shutdownOnce();
  }

  #onEnded(info: TransportCloseInfo): void {
    if (this.#endedInfo || this.#closeInfo) return;
    this.#endedInfo = info;
    if (this.#closing) return;
    if (this.#inputEnded) {
      this.#finish(info);
      return;
    }
    // The channel ended but what it wrote last may still be on its way: let the input drain.
    this.#startGraceTimer(() => this.#finish(info));
  }

  #startGraceTimer(onTimeout: () => void): void {
    this.#cancelGraceTimer?.();
    this.#cancelGraceTimer = startTimer(this.#eofGraceMs, () => {
      this.#cancelGraceTimer = undefined;
      if (!this.#closing) onTimeout(); // once close() runs, its shutdown decides
    });
  }

  #completeCloseInfo(info: TransportCloseInfo): TransportCloseInfo {
    return this.#options.completeCloseInfo ? this.#options.completeCloseInfo(info) : info;
  }

  // --- outgoing -------------------------------------------------------------------------------

  async #writeQueued(): Promise<void> {
    this.#writing = true;
    while (this.#writeQueueHead < this.#writeQueue.length && !this.#closeInfo) {
      const item = this.#writeQueue[this.#writeQueueHead++]!;
      this.#compactWriteQueue();
      this.#inFlightWrite = item;
      try {
        await this.#options.write(item.bytes);
        item.resolve();
      } catch (error) {
        // The channel is probably going away: give its end a moment to arrive. A close meanwhile
        // rejects this send itself (see #finish), with the close info.
        if (!this.#closeInfo) await settlesWithin(this.closed, this.#writeFailureCloseWaitMs);
        item.reject(this.#closeInfo ? new ConnectionClosedError(this.#closeInfo) : error);
      }
      this.#inFlightWrite = undefined;
    }
    this.#writing = false;
    this.#onWritesDrained?.();
  }

  /** Drops written entries from the front without shifting the array on every write. */
  #compactWriteQueue(): void {
    if (this.#writeQueueHead === this.#writeQueue.length) {
      this.#writeQueue = [];
      this.#writeQueueHead = 0;
    } else if (this.#writeQueueHead >= 1024 && this.#writeQueueHead * 2 >= this.#writeQueue.length) {
      this.#writeQueue = this.#writeQueue.slice(this.#writeQueueHead);
      this.#writeQueueHead = 0;
    }
  }

  /** Resolves when every queued send has been written, or after `timeoutMs`. */
  #waitForWrites(timeoutMs: number): Promise<void> {
    if (!this.#writing) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = (): void => {
        cancel();
        this.#onWritesDrained = undefined;
        resolve();
      };
      const cancel = startTimer(timeoutMs, done);
      this.#onWritesDrained = done;
    });
  }

  // --- closing --------------------------------------------------------------------------------

  async #closeOnce(): Promise<void> {
    if (this.#closeInfo) {
      // Already closed by itself; if it is still ending the channel, wait for that.
      if (this.#shutdownPromise) await this.#shutdownPromise;
      return;
    }
    this.#closing = true;
    await this.#waitForWrites(this.#options.closeDrainMs ?? 1000);
    const info = await this.#shutdownOnce();
    this.#finish({ ...info, reason: "closed" });
  }

  #shutdownOnce(): Promise<TransportCloseInfo> {
    this.#shutdownPromise ??= (async (): Promise<TransportCloseInfo> => {
      try {
        return await this.#options.shutdown();
      } catch (error) {
        return this.#completeCloseInfo({ reason: "error", error });
      }
    })();
    return this.#shutdownPromise;
  }

  /** Decides how the transport ended, once, and settles everything that waits on it. */
  #finish(info: TransportCloseInfo): void {
    if (this.#closeInfo) return;
    this.#closeInfo = info;
    if (this.#cancelGraceTimer !== undefined) {
      this.#cancelGraceTimer();
      this.#cancelGraceTimer = undefined;
    }
    // A pending read would otherwise never settle.
    this.#reader?.cancel().catch(() => {});

    const closedError = new ConnectionClosedError(info);
    this.#inFlightWrite?.reject(closedError);
    for (let i = this.#writeQueueHead; i < this.#writeQueue.length; i++) this.#writeQueue[i]!.reject(closedError);
    this.#writeQueue = [];
    this.#writeQueueHead = 0;

    this.#inbox.complete();
    this.#diagnostics.complete();
    this.#resolveClosed(info);
  }
}
