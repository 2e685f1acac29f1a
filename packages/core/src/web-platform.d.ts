// The web-platform APIs core uses, which Node 20+, Deno, Bun and browsers all provide. core is
// compiled without node, DOM, Deno or Bun types (so nothing runtime-specific can creep in); these
// are the shapes it relies on. Declarations only: the real objects come from the runtime.

declare class TextEncoder {
  encode(input?: string): Uint8Array;
}

declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}

interface ReadableStreamDefaultReader<R = unknown> {
  read(): Promise<{ done: true; value?: undefined } | { done: false; value: R }>;
  cancel(reason?: unknown): Promise<void>;
  releaseLock(): void;
  readonly closed: Promise<void>;
}

interface ReadableStream<R = unknown> {
  readonly locked: boolean;
  getReader(): ReadableStreamDefaultReader<R>;
  cancel(reason?: unknown): Promise<void>;
}

interface WritableStreamDefaultWriter<W = unknown> {
  readonly ready: Promise<void>;
  readonly closed: Promise<void>;
  write(chunk: W): Promise<void>;
  close(): Promise<void>;
  abort(reason?: unknown): Promise<void>;
  releaseLock(): void;
}

interface WritableStream<W = unknown> {
  readonly locked: boolean;
  getWriter(): WritableStreamDefaultWriter<W>;
}

interface AbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

declare function setTimeout(handler: () => void, timeout?: number): unknown;
declare function clearTimeout(handle: unknown): void;
declare function queueMicrotask(callback: () => void): void;

declare class AbortController {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
}
