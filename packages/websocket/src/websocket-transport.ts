import {
  ConnectionClosedError,
  diagnosticExcerpt,
  MessageInbox,
  type JsonRpcMessage,
  type Transport,
  type TransportCloseInfo,
  type TransportDiagnostic,
} from "@codex-rpc/core";
import { ReplaySubject, type Observable } from "rxjs";
import { describeConnectFailure, readyzUrlOf } from "./connect-failure.js";
import { type WebSocketConstructor, type WebSocketLike } from "./websocket-like.js";

export interface WebSocketTransportOptions {
  /** The server's address, e.g. `ws://127.0.0.1:4500` (codex `--listen ws://IP:PORT`). */
  readonly url: string;
  /** A capability token (codex `--ws-auth capability-token`), sent as `Authorization: Bearer …`. */
  readonly token?: string;
  /** The WebSocket constructor. Default: the global one (browsers, Deno, Bun, Node 22); on Node 20 pass `ws`. */
  readonly WebSocket?: WebSocketConstructor;
  /** How long the opening handshake may take. Default 10 000 ms. */
  readonly connectTimeoutMs?: number;
  /** `close()`: how long to wait for the server's close frame. Default 1000 ms. */
  readonly closeTimeoutMs?: number;
  /** Aborting gives up the opening handshake. */
  readonly signal?: AbortSignal;
}

/** How many diagnostics a late subscriber to `diagnostics` still sees. */
const DIAGNOSTICS_REPLAY = 100;
const NORMAL_CLOSURE = 1000;

/**
 * Opens a WebSocket to a codex app-server and resolves with its transport once the connection is
 * open: one JSON message per text frame, each way.
 *
 * @throws WebSocketConnectError `CONNECT_FAILED` (nothing there, refused, timed out, aborted) or
 *   `UNAUTHORIZED` (the token was missing or rejected). The token never appears in an error.
 */
export async function openWebSocketTransport(options: WebSocketTransportOptions): Promise<WebSocketTransport> {
  const Socket = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (!Socket) {
    throw new TypeError("this runtime has no global WebSocket (Node 20): pass one, e.g. `WebSocket` from the `ws` package");
  }
  const headers = options.token === undefined ? undefined : { Authorization: `Bearer ${options.token}` };
  const socket = headers ? new Socket(options.url, { headers }) : new Socket(options.url);
  const transport = new WebSocketTransport(socket, options);
  await transport.opened;
  return transport;
}

/** A Transport over one WebSocket. Made by `openWebSocketTransport`. */
export class WebSocketTransport implements Transport {
  readonly messages: Observable<JsonRpcMessage>;
  readonly diagnostics: Observable<TransportDiagnostic>;
  readonly closed: Promise<TransportCloseInfo>;
  /** Resolves when the connection is open; rejects with a WebSocketConnectError. */
  readonly opened: Promise<void>;

  readonly #socket: WebSocketLike;
  readonly #options: WebSocketTransportOptions;
  readonly #inbox = new MessageInbox<JsonRpcMessage>();
  readonly #diagnostics = new ReplaySubject<TransportDiagnostic>(DIAGNOSTICS_REPLAY);
  #resolveClosed: (info: TransportCloseInfo) => void = () => {};
  #closeInfo: TransportCloseInfo | undefined;
  #isOpen = false;
  #closing = false;
  #closePromise: Promise<void> | undefined;
  #onOpenFailed: (detail: string | undefined, why?: "timeout" | "abort") => void = () => {};

  constructor(socket: WebSocketLike, options: WebSocketTransportOptions) {
    this.#socket = socket;
    this.#options = options;
    this.messages = this.#inbox.observable;
    this.diagnostics = this.#diagnostics.asObservable();
    this.closed = new Promise((resolve) => (this.#resolveClosed = resolve));
    this.opened = this.#watchOpening();
    socket.addEventListener("message", (event) => this.#receive(event.data));
    socket.addEventListener("error", (event) => {
      const detail = errorDetail(event);
      if (!this.#isOpen) this.#onOpenFailed(detail);
      else this.#finish({ reason: "error", error: new Error(`WebSocket error${detail === undefined ? "" : `: ${detail}`}`) });
    });
    socket.addEventListener("close", (event) => {
      if (!this.#isOpen) this.#onOpenFailed(event.reason || undefined);
      this.#finish({ reason: this.#closing ? "closed" : "eof", closeCode: event.code, ...(event.reason ? { closeReason: event.reason } : {}) });
    });
  }

  send(message: JsonRpcMessage): Promise<void> {
    if (this.#closeInfo) return Promise.reject(new ConnectionClosedError(this.#closeInfo));
    if (this.#closing) return Promise.reject(new ConnectionClosedError({ reason: "closed" }));
    try {
      // One message per text frame: the server drops frames holding two.
      this.#socket.send(JSON.stringify(message));
    } catch (error) {
      return Promise.reject(error);
    }
    return Promise.resolve();
  }

  close(): Promise<void> {
    return (this.#closePromise ??= this.#closeOnce());
  }

  async #closeOnce(): Promise<void> {
    if (this.#closeInfo) return;
    this.#closing = true;
    try {
      this.#socket.close(NORMAL_CLOSURE);
    } catch {
      // Already closing.
    }
    const timeoutMs = this.#options.closeTimeoutMs ?? 1000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.closed, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
    this.#finish({ reason: "closed" });
  }

  #watchOpening(): Promise<void> {
    const { connectTimeoutMs = 10_000, signal } = this.#options;
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const settle = (): boolean => {
        if (settled) return false;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        return true;
      };
      const fail = (detail: string | undefined, why?: "timeout" | "abort"): void => {
        if (!settle()) return;
        this.#closing = true;
        try {
          this.#socket.close();
        } catch {
          // Never opened.
        }
        this.#finish({ reason: "error", error: new Error(detail ?? "WebSocket connection failed") });
        describeConnectFailure({
          url: this.#options.url,
          detail,
          sentToken: this.#options.token !== undefined,
          timedOut: why === "timeout",
          aborted: why === "abort",
          readyzUrl: readyzUrlOf(this.#options.url),
          fetch: (globalThis as { fetch?: Parameters<typeof describeConnectFailure>[0]["fetch"] }).fetch,
        }).then(reject, reject);
      };
      const onAbort = (): void => fail(String(signal?.reason), "abort");
      const timer = setTimeout(() => fail(`no answer within ${connectTimeoutMs} ms`, "timeout"), connectTimeoutMs);
      this.#onOpenFailed = fail;
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#socket.addEventListener("open", () => {
        if (!settle()) return;
        this.#isOpen = true;
        resolve();
      });
    });
  }

  #receive(data: unknown): void {
    if (this.#closeInfo) return;
    if (typeof data !== "string") {
      // The protocol is text frames only; say so rather than guess at an encoding.
      this.#diagnostics.next({ kind: "binary-frame", message: "dropped a binary WebSocket frame: the protocol uses text frames only" });
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      this.#diagnostics.next({
        kind: "invalid-json",
        message: `dropped a WebSocket frame of ${data.length} characters that is not one JSON message`,
        excerpt: diagnosticExcerpt(data),
      });
      return;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      this.#diagnostics.next({ kind: "not-an-object", message: "dropped a WebSocket frame that is JSON but not an object", excerpt: diagnosticExcerpt(data) });
      return;
    }
    this.#inbox.deliver(value as JsonRpcMessage);
  }

  #finish(info: TransportCloseInfo): void {
    if (this.#closeInfo) return;
    this.#closeInfo = info;
    this.#inbox.complete();
    this.#diagnostics.complete();
    this.#resolveClosed(info);
  }
}

/** What an error event says, if anything: `message` (ws, Deno, Bun, undici) or a wrapped error's. */
function errorDetail(event: { readonly message?: unknown; readonly error?: unknown }): string | undefined {
  if (typeof event.message === "string" && event.message !== "") return event.message;
  if (event.error instanceof Error) return event.error.message;
  return undefined;
}
