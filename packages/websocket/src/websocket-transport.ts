import {
  ConnectionClosedError,
  type JsonRpcMessage,
  type Transport,
  type TransportCloseInfo,
  type TransportDiagnostic,
  InvalidOptionError,
} from "@codex-rpc/core";
import { asyncDisposeSymbol, checkTimeout, diagnosticExcerpt, encodeJsonText, MessageInbox, redactSecrets, startTimer } from "@codex-rpc/core/transport";
import { ReplaySubject, type Observable } from "rxjs";
import { redactUrl, WebSocketConnectError } from "./connect-failure.js";
import type { ConnectFailure } from "./connect-failure-probe.js";
import type { SecretRedactor } from "./secret-redactor.js";
import { resolveHeartbeat, type HeartbeatOptions } from "./heartbeat.js";
import type { Heartbeat } from "./heartbeat-probe.js";
import { constructStandard } from "./construct-socket.js";
import { checkMaxMessageBytes, DEFAULT_MAX_MESSAGE_BYTES, utf8BytesOver } from "./message-size.js";
import { offersRelayProtocol, RELAY_DISCOVERY_PATH } from "./relay-protocol.js";
import { checkProtocols, redactProtocols } from "./subprotocols.js";
import type { WebSocketConstructor, WebSocketLike } from "./websocket-like.js";
import type { FrameSink, SocketRuntime } from "./socket-runtime.js";

export interface WebSocketTransportOptions {
  /** The server's address, e.g. `ws://127.0.0.1:4500` (codex `--listen ws://IP:PORT`). */
  readonly url: string;
  /** A capability token (codex `--ws-auth capability-token`), sent as `Authorization: Bearer …`. */
  readonly token?: string;
  /**
   * WebSocket subprotocols to offer (`Sec-WebSocket-Protocol`), on every runtime: e.g.
   * `relayProtocols(token)` for @codex-rpc/relay. Each must be an RFC 6455 token. Never logged nor
   * put in an error: a relay token travels in it.
   */
  readonly protocols?: string | readonly string[];
  /** The WebSocket constructor. Default: the global one (browsers, Deno, Bun, Node 22); on Node 20 pass `ws`. */
  readonly WebSocket?: WebSocketConstructor;
  /** How long the opening handshake may take. Default 10 000 ms; `Infinity`: no limit. */
  readonly connectTimeoutMs?: number;
  /** How long to wait for the server's close frame before dropping the connection. Default 1000 ms. */
  readonly closeTimeoutMs?: number;
  /**
   * The largest text frame accepted, in UTF-8 bytes: a larger one is dropped with an
   * `oversize-line` diagnostic and the connection stays up, as on stdio. Default 128 MiB (core's
   * DEFAULT_MAX_LINE_BYTES). Under `ws`, a frame above this plus a margin (the same again, at least
   * 16 MiB) closes the connection: see the README.
   */
  readonly maxMessageBytes?: number;
  /**
   * Notices a server that stopped answering: after `intervalMs` (default 30 000) without a frame
   * it sends a probe request, and closes the transport (reason `error`) when nothing arrives within
   * `timeoutMs` (default 10 000). `false`: off.
   */
  readonly heartbeat?: HeartbeatOptions | false;
  /** Aborting gives up the opening handshake. */
  readonly signal?: AbortSignal;
}

/** How many diagnostics a late subscriber to `diagnostics` still sees. */
const DIAGNOSTICS_REPLAY = 100;
const NORMAL_CLOSURE = 1000;

interface ResolvedOptions {
  readonly connectTimeoutMs: number;
  readonly closeTimeoutMs: number;
  readonly maxMessageBytes: number;
  readonly heartbeat: ReturnType<typeof resolveHeartbeat>;
  readonly protocols: readonly string[] | undefined;
}

/** Defaults and checks, so a bad value fails before anything is opened. */
function resolveOptions(options: WebSocketTransportOptions): ResolvedOptions {
  const { connectTimeoutMs = 10_000, closeTimeoutMs = 1000, maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES } = options;
  checkTimeout(connectTimeoutMs, "connectTimeoutMs");
  checkTimeout(closeTimeoutMs, "closeTimeoutMs");
  checkMaxMessageBytes(maxMessageBytes);
  return { connectTimeoutMs, closeTimeoutMs, maxMessageBytes, heartbeat: resolveHeartbeat(options.heartbeat), protocols: checkProtocols(options.protocols) };
}

/**
 * Opens a WebSocket to a codex app-server and resolves with its transport once the connection is
 * open: one JSON message per text frame, each way. `runtime`: what ws and the server-side runtimes
 * need (SERVER_SOCKETS, given by the entries of Node, Deno and Bun; not by the browser's).
 *
 * @throws WebSocketConnectError `CONNECT_FAILED` (nothing there, refused, timed out, aborted) or
 *   `UNAUTHORIZED` (the token was missing or rejected). The token never appears in an error.
 */
export async function openWebSocketTransport(options: WebSocketTransportOptions, runtime?: SocketRuntime): Promise<WebSocketTransport> {
  if (typeof options.url !== "string") throw new InvalidOptionError("url", "must be a ws:// or wss:// URL string");
  const Socket = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (!Socket) {
    throw new InvalidOptionError("WebSocket", "this runtime has no global WebSocket (Node 20): pass one, e.g. `WebSocket` from the `ws` package");
  }
  const { maxMessageBytes, protocols } = resolveOptions(options);
  let headers: Record<string, string> | undefined;
  if (options.token !== undefined) {
    // A header value cannot hold these; the runtime would throw a TypeError quoting the header.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this check looks for
    if (typeof options.token !== "string" || /[\0-\x1f\x7f]/.test(options.token)) {
      throw new InvalidOptionError("token", "must be a string without line breaks, NUL or other control characters");
    }
    headers = { Authorization: `Bearer ${options.token}` };
  }
  // The server may echo a secret back: what takes them out of its frames is loaded now, before any can arrive.
  const redactor = options.token === undefined && !protocols ? undefined : (await import("./secret-redactor.js")).secretRedactor(options.token, protocols);
  let socket: WebSocketLike;
  try {
    const init = { ...(headers ? { headers } : {}), ...(protocols ? { protocols } : {}) };
    socket = runtime ? runtime.construct(Socket, options.url, init, maxMessageBytes) : constructStandard(Socket, options.url, init);
  } catch (error) {
    // An unparsable URL: the runtime's message quotes it whole, credentials included.
    const url = redactUrl(options.url);
    const detail = redactProtocols(error instanceof Error ? error.message : "the runtime refused it", protocols);
    throw new WebSocketConnectError("CONNECT_FAILED", `cannot open a WebSocket to ${url}: ${redactSecrets(detail)}`, url, undefined);
  }
  const transport = new WebSocketTransport(socket, options, redactor, runtime);
  await transport.opened;
  return transport;
}

/** A Transport over one WebSocket. Made by `openWebSocketTransport`. */
export class WebSocketTransport implements Transport {
  readonly messages$: Observable<JsonRpcMessage>;
  readonly diagnostics$: Observable<TransportDiagnostic>;
  readonly closed: Promise<TransportCloseInfo>;
  /** Resolves when the connection is open; rejects with a WebSocketConnectError. */
  readonly opened: Promise<void>;

  readonly #socket: WebSocketLike;
  readonly #options: WebSocketTransportOptions;
  readonly #resolved: ResolvedOptions;
  /** Made once the socket is open and its module has arrived (loaded on demand: see #startHeartbeat). */
  #heartbeat: Heartbeat | undefined;
  readonly #redactor: SecretRedactor | undefined;
  readonly #runtime: SocketRuntime | undefined;
  readonly #inbox = new MessageInbox<JsonRpcMessage>();
  readonly #diagnostics = new ReplaySubject<TransportDiagnostic>(DIAGNOSTICS_REPLAY);
  #resolveClosed: (info: TransportCloseInfo) => void = () => {};
  #closeInfo: TransportCloseInfo | undefined;
  #isOpen = false;
  #closing = false;
  #closePromise: Promise<void> | undefined;
  /** The socket's own close event came. */
  #socketClosed = false;
  #onSocketClosed: () => void = () => {};
  #socketGone: Promise<void> | undefined;
  #onOpenFailed: (detail: string | undefined, why?: "timeout" | "abort") => void = () => {};

  /**
   * `redactor`: the secrets of `options` (see secret-redactor), taken out of every frame and the
   * close reason. `runtime`: what the `ws` package and the server-side runtimes need (see
   * socket-runtime); without it the socket is used as a standard (a page's) WebSocket.
   */
  constructor(socket: WebSocketLike, options: WebSocketTransportOptions, redactor?: SecretRedactor, runtime?: SocketRuntime) {
    this.#socket = socket;
    this.#redactor = redactor;
    this.#runtime = runtime;
    this.#options = options;
    this.#resolved = resolveOptions(options);
    this.messages$ = this.#inbox.messages$;
    this.diagnostics$ = this.#diagnostics.asObservable();
    this.closed = new Promise((resolve) => (this.#resolveClosed = resolve));
    this.opened = this.#watchOpening();
    socket.addEventListener("open", () => this.#startHeartbeat());
    const sink: FrameSink = {
      arrived: () => this.#arrived(),
      binary: () => this.#reportBinary(),
      oversize: (bytes, why) => this.#reportOversize(bytes, why),
      text: (text) => this.#parse(text),
    };
    if (!runtime?.listen(socket, this.#resolved.maxMessageBytes, sink)) socket.addEventListener("message", (event) => this.#receive(event.data));
    socket.addEventListener("error", (event) => {
      const detail = errorDetail(event);
      if (!this.#isOpen) this.#onOpenFailed(detail);
      else
        this.#finish({
          reason: "error",
          error:
            runtime?.tooBig(socket, event, detail, this.#resolved.maxMessageBytes) ?? new Error(`WebSocket error${detail === undefined ? "" : `: ${detail}`}`),
        });
    });
    socket.addEventListener("close", (event) => {
      this.#socketClosed = true;
      this.#onSocketClosed();
      if (!this.#isOpen) this.#onOpenFailed(event.reason || undefined);
      // The server chooses the reason text: redacted like everything else it sends.
      this.#finish({
        reason: this.#closing ? "closed" : "eof",
        closeCode: event.code,
        ...(event.reason ? { closeReason: redactSecrets(redactor ? redactor.text(String(event.reason)) : String(event.reason)) } : {}),
      });
    });
  }

  send(message: JsonRpcMessage): Promise<void> {
    if (this.#closeInfo) return Promise.reject(new ConnectionClosedError(this.#closeInfo));
    if (this.#closing) return Promise.reject(new ConnectionClosedError({ reason: "closed" }));
    try {
      // One message per text frame: the server drops frames holding two.
      this.#socket.send(encodeJsonText(message));
    } catch (error) {
      return Promise.reject(error);
    }
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.#closePromise ??= this.#closeOnce();
    return this.#closePromise;
  }

  /** `await using transport = …` closes it when the block ends (see `close()`). */
  async [asyncDisposeSymbol](): Promise<void> {
    await this.close();
  }

  async #closeOnce(): Promise<void> {
    if (this.#closeInfo) return this.#socketGone;
    this.#closing = true;
    this.#heartbeat?.stop();
    await this.#shutdownSocket();
    this.#finish({ reason: "closed" });
  }

  /**
   * Sends the close frame; if the server has not answered it within closeTimeoutMs, drops the
   * connection (see terminateSocket), so that nothing keeps the program alive. Resolves then.
   */
  #shutdownSocket(): Promise<void> {
    this.#socketGone ??= new Promise<void>((resolve) => {
      if (this.#socketClosed) {
        resolve();
        return;
      }
      try {
        this.#socket.close(NORMAL_CLOSURE);
      } catch {
        // Already closing.
      }
      const cancel = startTimer(this.#resolved.closeTimeoutMs, () => {
        this.#terminate();
        resolve();
      });
      this.#onSocketClosed = () => {
        cancel();
        resolve();
      };
    });
    return this.#socketGone;
  }

  /**
   * The heartbeat starts once the socket is open, its module loaded then (nothing needs it before
   * its first probe, `intervalMs` later). Should the module fail to load, a diagnostic says the
   * connection goes unwatched; a transport closed meanwhile starts none.
   */
  #startHeartbeat(): void {
    const options = this.#resolved.heartbeat;
    if (!options || !this.#isOpen) return;
    import("./heartbeat-probe.js").then(
      ({ Heartbeat }) => {
        if (this.#closeInfo || this.#closing) return;
        const socket = this.#socket;
        this.#heartbeat = new Heartbeat(
          options,
          (probe) => socket.send(probe),
          (error) => this.#peerIsDead(error),
          startTimer,
        );
        this.#heartbeat.start();
      },
      (error: unknown) => {
        if (this.#closeInfo) return;
        const why = redactSecrets(error instanceof Error ? error.message : String(error));
        this.#diagnostics.next({ kind: "other", message: `the heartbeat could not be loaded (${why}): a server that stops answering is not noticed` });
      },
    );
  }

  /** The heartbeat got no answer: no close handshake to wait for, drop the connection now. */
  #peerIsDead(error: Error): void {
    this.#finish({ reason: "error", error });
    this.#terminate();
  }

  /** Drops the connection with no close handshake: the runtime's way (see terminateSocket), else the socket's own `terminate()`, if any. */
  #terminate(): void {
    if (this.#runtime) this.#runtime.terminate(this.#socket);
    else this.#socket.terminate?.();
  }

  #watchOpening(): Promise<void> {
    const { signal } = this.#options;
    const { connectTimeoutMs } = this.#resolved;
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const settle = (): boolean => {
        if (settled) return false;
        settled = true;
        cancelTimer();
        signal?.removeEventListener("abort", onAbort);
        return true;
      };
      const fail = (detail: string | undefined, why?: "timeout" | "abort"): void => {
        if (!settle()) return;
        this.#closing = true;
        const { protocols } = this.#resolved;
        const said = detail === undefined ? undefined : redactProtocols(detail, protocols);
        this.#finish({ reason: "error", error: new Error(said ?? "WebSocket connection failed") });
        const relay = offersRelayProtocol(protocols);
        const { url } = this.#options;
        // What went wrong is found out on demand (the probe module loads now): a connection that opens never loads it.
        import("./connect-failure-probe.js")
          .then(
            (failure) =>
              failure.describeConnectFailure({
                url,
                detail: said,
                sentToken: this.#options.token !== undefined || relay,
                relay,
                timedOut: why === "timeout",
                aborted: why === "abort",
                readyzUrl: failure.readyzUrlOf(url, relay ? RELAY_DISCOVERY_PATH : undefined),
                fetch: globalFetch(),
              }),
            () =>
              new WebSocketConnectError(
                "CONNECT_FAILED",
                `WebSocket connection to ${redactUrl(url)} could not be opened${said === undefined ? "" : ` (${redactSecrets(said)})`}`,
                redactUrl(url),
                undefined,
              ),
          )
          .then(reject, reject);
      };
      const onAbort = (): void => fail(String(signal?.reason), "abort");
      const cancelTimer = startTimer(connectTimeoutMs, () => fail(`no answer within ${connectTimeoutMs} ms`, "timeout"));
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

  /** A frame came: it counts as life, unless the transport has closed (false: it is dropped). */
  #arrived(): boolean {
    if (this.#closeInfo) return false;
    this.#heartbeat?.frameReceived();
    return true;
  }

  #receive(data: unknown): void {
    if (!this.#arrived()) return;
    if (typeof data !== "string") return this.#reportBinary();
    const oversize = utf8BytesOver(data, this.#resolved.maxMessageBytes);
    if (oversize !== undefined) return this.#reportOversize(oversize);
    this.#parse(data);
  }

  #reportBinary(): void {
    // The protocol is text frames only; say so rather than guess at an encoding.
    this.#diagnostics.next({ kind: "binary-frame", message: "dropped a binary WebSocket frame: the protocol uses text frames only" });
  }

  #reportOversize(bytes: number, why = `longer than the limit of ${this.#resolved.maxMessageBytes} bytes (maxMessageBytes)`): void {
    const message = `dropped a WebSocket frame of ${bytes} bytes: ${why}`;
    this.#diagnostics.next({ kind: "oversize-line", message, bytes });
  }

  #parse(frame: string): void {
    const data = this.#redactor ? this.#redactor.frame(frame) : frame;
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
    if (this.#heartbeat?.takeReply(value)) return; // the transport's own probe
    this.#inbox.deliver(value as JsonRpcMessage);
  }

  #finish(info: TransportCloseInfo): void {
    if (this.#closeInfo) return;
    this.#closeInfo = info;
    this.#heartbeat?.stop();
    this.#inbox.complete();
    this.#diagnostics.complete();
    this.#resolveClosed(info);
    // A close decided here (an error, a failed opening) must not leave the socket open either.
    if (!this.#socketClosed) void this.#shutdownSocket();
  }
}

/** What an error event says, if anything: `message` (ws, Deno, Bun, undici) or a wrapped error's. */
function errorDetail(event: { readonly message?: unknown; readonly error?: unknown }): string | undefined {
  if (typeof event.message === "string" && event.message !== "") return event.message;
  if (event.error instanceof Error) return event.error.message;
  return undefined;
}

/**
 * The runtime's `fetch`, bound: a browser's throws "Illegal invocation" when called on anything but
 * the global object, and the failure probe calls it as a property of its own options.
 */
function globalFetch(): ConnectFailure["fetch"] {
  const fetch = (globalThis as { fetch?: ConnectFailure["fetch"] }).fetch;
  return fetch?.bind(globalThis);
}
