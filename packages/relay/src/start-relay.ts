import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { Duplex } from "node:stream";
import type { JsonRpcMessage } from "@codex-rpc/core/transport";
import { type WebSocket, WebSocketServer } from "ws";
import { isLoopbackHost, normalizeOrigin, originAllowed } from "./origin-policy.js";
import { redactingLogger, type RelayLogger } from "./relay-log.js";
import { RelayCloseCode } from "./relay-multiplexer.js";
import { StartupQueue, type StartupQueueLimits } from "./startup-queue.js";
import { completeRateLimit, type RateLimit } from "./token-bucket.js";
import { describeValue, wholeAbove0 } from "./limits.js";
import { serveConsoleFile } from "./console-files.js";
import { checkGivenToken } from "./given-token.js";
import { exchangeLoginCode, LOGIN_CODE_PATH, LoginCodes } from "./login-codes.js";
import { createRelayToken, RELAY_SUBPROTOCOL, TOKEN_SUBPROTOCOL_PREFIX } from "./token.js";
import { hostAllowed } from "./host-check.js";
import { checkUpgrade, DISCOVERY_PATH, type Refusal, requestUrl } from "./upgrade-gate.js";
import type { RelayUpstream } from "./upstream.js";
import { type RelayIsolation, sharedUpstream, upstreamPerConnection } from "./upstream-pool.js";

const VERSION = (createRequire(import.meta.url)("../package.json") as { version: string }).version;

export interface RelayOptions {
  /** The app-server: spawned by default (`{ spawn: {} }`), or a running one, or a Transport. */
  readonly upstream?: RelayUpstream;
  /** Where to listen. Default `127.0.0.1`; a non-loopback host needs `allowNonLoopback`. */
  readonly host?: string;
  /** Default 0: a free port (read it from the handle). A whole number from 0 to 65535. */
  readonly port?: number;
  /** Listen on a non-loopback host (anyone who can reach it may try the token). Default false. */
  readonly allowNonLoopback?: boolean;
  /**
   * Origins whose pages may connect (`http://localhost:5173`); the relay's own origins are always
   * allowed. A request with any other `Origin` gets 403 before the upgrade. Requests without an
   * `Origin` (not a browser) are let through to the token check.
   */
  readonly allowedOrigins?: readonly string[];
  /** The largest message a connection may send, in bytes (default 8 MiB; a whole number above 0); larger closes it with 1009. */
  readonly maxMessageBytes?: number;
  /**
   * Per-connection rate limit (default 100 messages/s, bursts of 200); faster closes it with 1008.
   * A field left out takes its default (`{ perSecond: 5 }` has bursts of 200). `perSecond` a
   * number above 0, `burst` a whole number above 0.
   */
  readonly rateLimit?: Partial<RateLimit>;
  /** Ask the app-server for its experimental API (default true). */
  readonly experimentalApi?: boolean;
  /**
   * "threads" (default): one app-server for all connections, each seeing only its own threads.
   * "process": an app-server session of its own per connection (a process per connection when
   * spawning), closed when the connection closes.
   */
  readonly isolation?: RelayIsolation;
  /**
   * Browser connections open at once (default 32); one more is accepted and closed at once with
   * 1013 (try again later) and a reason naming the limit. Nothing of it reaches the app-server.
   */
  readonly maxConnections?: number;
  /**
   * What a connection may send while its app-server session starts (isolation "process" spawns one
   * per connection; the rate limit applies once it is open): default 200 messages and 16 MiB;
   * more closes it with 1008.
   */
  readonly maxQueuedWhileStarting?: StartupQueueLimits;
  /** Every line the relay logs, secrets and the token redacted. Default: nothing is logged. */
  readonly log?: RelayLogger;
  /** The token pages must present (≥ 32 base64url characters), e.g. to survive a restart. Default: a fresh random one. */
  readonly token?: string;
  /**
   * Let pages pass `path` (a rollout file) or `history` to `thread/resume` / `thread/fork`.
   * Default false: refused with -32003, as a rollout path can name another page's thread.
   */
  readonly allowRolloutPaths?: boolean;
  /** Serve the web console's static files from this folder at `/` (the CLI's `--open`). Default: no pages. */
  readonly consoleDir?: string;
}

export interface RelayHandle {
  /** The WebSocket URL for pages: `ws://127.0.0.1:PORT/`. */
  readonly url: string;
  /** The launch token: the page presents it as the subprotocol `codex-rpc.token.<token>`. */
  readonly token: string;
  readonly host: string;
  readonly port: number;
  /** The spawned app-server's process id (undefined when the relay connected to a running one, or with isolation "process"). */
  readonly upstreamPid: number | undefined;
  /**
   * Resolves when the shared app-server has gone by itself or through `close()` (connections are
   * closed with 1011 and new ones refused the same way); never with isolation "process".
   */
  readonly upstreamEnded: Promise<void>;
  /** Messages the relay sent to the app-server so far (its own handshake included). */
  readonly upstreamMessageCount: number;
  /**
   * A one-time code (valid once, for 60 s) the relay's console page exchanges for the token
   * (`#code=…`): the CLI's `--open` puts it, not the token, in the URL it hands the browser.
   */
  createLoginCode(): string;
  /** Stops listening, closes every connection (1001) and the app-server (a spawned one exits). */
  close(): Promise<void>;
}

const DEFAULT_MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
const DEFAULT_MAX_CONNECTIONS = 32;

/** Starts a relay: opens the app-server, then listens for browsers. */
export async function startRelay(options: RelayOptions = {}): Promise<RelayHandle> {
  const host = options.host ?? "127.0.0.1";
  if (!isLoopbackHost(host) && !options.allowNonLoopback) {
    throw new TypeError(`startRelay: ${host} is not a loopback address; pass allowNonLoopback: true to listen there`);
  }
  // Every limit is checked before anything starts: `ws` takes a maxPayload of NaN or ≤ 0 as no limit,
  // and a rate limit with a NaN field admits everything.
  const maxConnections = wholeAbove0("startRelay", "maxConnections", options.maxConnections ?? DEFAULT_MAX_CONNECTIONS);
  const maxMessageBytes = wholeAbove0("startRelay", "maxMessageBytes", options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
  const rateLimit = completeRateLimit("startRelay", options.rateLimit);
  new StartupQueue(options.maxQueuedWhileStarting); // checks the limits now
  const listenPort = options.port ?? 0;
  if (!(typeof listenPort === "number" && Number.isInteger(listenPort) && listenPort >= 0 && listenPort <= 65_535)) {
    throw new RangeError(`startRelay: port must be a whole number from 0 to 65535, not ${describeValue(listenPort)}`);
  }
  const token = options.token === undefined ? createRelayToken() : checkGivenToken(options.token);
  const log = redactingLogger(options.log, token);
  const allowed = new Set<string>();
  for (const origin of options.allowedOrigins ?? []) {
    const normalized = normalizeOrigin(origin);
    if (normalized === undefined) throw new TypeError(`startRelay: ${origin} is not an origin (scheme://host[:port])`);
    allowed.add(normalized);
  }

  const muxOptions = {
    log,
    rateLimit,
    ...(options.experimentalApi !== undefined ? { experimentalApi: options.experimentalApi } : {}),
    ...(options.allowRolloutPaths ? { allowRolloutPaths: true } : {}),
  };
  const pool = options.isolation === "process" ? upstreamPerConnection(options.upstream, muxOptions) : await sharedUpstream(options.upstream, muxOptions);

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: maxMessageBytes,
    handleProtocols: (protocols) =>
      protocols.has(RELAY_SUBPROTOCOL) ? RELAY_SUBPROTOCOL : ([...protocols].find((p) => p.startsWith(TOKEN_SUBPROTOCOL_PREFIX)) ?? false),
  });
  const codes = new LoginCodes();
  /** The relay's own origins (its console's): the only ones that may exchange a login code. */
  const own = new Set<string>();
  const onLoopback = isLoopbackHost(host);
  const server = createServer((request, response) => {
    if (!hostAllowed(request.headers.host, onLoopback)) {
      log(`refused a request for host ${request.headers.host?.slice(0, 200)}: not a loopback name`);
      return void response.writeHead(403, { "content-type": "text/plain" }).end("host not allowed\n");
    }
    if (requestUrl(request)?.pathname === LOGIN_CODE_PATH) return void exchangeLoginCode(request, response, codes, own, token, log);
    serveHttp(request, response, allowed, wsUrl, options.consoleDir);
  });
  let wsUrl = "";
  /** Browser connections open now (accepted, not yet closed). */
  let connections = 0;
  server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const refusal = hostAllowed(request.headers.host, onLoopback)
      ? checkUpgrade(request, allowed, token)
      : { status: 403 as const, reason: "host not allowed" };
    if (refusal) {
      log(`refused an upgrade from ${(request.headers.origin ?? "(no origin)").slice(0, 200)}: ${refusal.status} ${refusal.reason}`);
      return refuse(socket, refusal);
    }
    // Counted once upgraded: `ws` never calls back when it aborts the handshake (no Sec-WebSocket-Key…).
    wss.handleUpgrade(request, socket, head, (ws) => {
      if (connections >= maxConnections) {
        log(`refused a connection: ${connections} open, the limit (maxConnections)`);
        return ws.close(RelayCloseCode.tooManyConnections, `too many connections (the relay allows ${maxConnections})`);
      }
      connections++;
      accept(ws);
    });
  });

  const accept = (ws: WebSocket) => {
    const queue = new StartupQueue(options.maxQueuedWhileStarting);
    // Messages that arrive while the connection's app-server session opens wait for it, in order.
    const session = pool
      .attach({
        send: (message: JsonRpcMessage) => ws.send(JSON.stringify(message)),
        close: (code, reason) => ws.close(code, reason),
      })
      .then(
        (opened) => {
          queue.open();
          log(`connection #${opened.connection.id} opened`);
          return opened;
        },
        (error: unknown) => {
          log(`a connection's app-server did not start: ${error instanceof Error ? error.message : String(error)}`);
          ws.close(RelayCloseCode.upstreamClosed, "the app-server did not start");
          return undefined;
        },
      );
    ws.on("message", (data, isBinary) => {
      if (!queue.admit(byteLength(data))) {
        log("a connection sent too much while its app-server started; closed");
        return ws.close(RelayCloseCode.rateLimited, "too many messages before the app-server was ready");
      }
      if (isBinary) return void session.then((opened) => opened?.connection.close(1003, "binary frames are not accepted"));
      let message: unknown;
      try {
        message = JSON.parse(data.toString());
      } catch {
        // Through the connection, so that it counts against the rate limit too.
        return void session.then((opened) => opened?.connection.receiveUnparsable());
      }
      void session.then((opened) => opened?.connection.receive(message));
    });
    ws.on("error", (error) => log(`a connection: ${error.message}`));
    ws.on("close", (code) => {
      // Still counted until its session is released: with isolation "process" that is when its
      // app-server, maybe still starting, has been closed — so maxConnections bounds app-servers too.
      void session
        .then((opened) => {
          if (!opened) return;
          log(`connection #${opened.connection.id} closed (${code})`);
          return opened.release();
        })
        .finally(() => connections--);
    });
  };

  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(listenPort, host, () => resolve());
    });
  } catch (error) {
    // Nothing listens (the port is taken…): the app-server opened for it, a spawned one included, is ended first.
    await pool.close();
    throw error;
  }
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const urlHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  wsUrl = `ws://${urlHost}:${port}/`;
  // The relay's own pages (the console it may serve) are always allowed.
  own.add(`http://${urlHost}:${port}`);
  if (isLoopbackHost(host)) for (const name of ["localhost", "127.0.0.1", "[::1]"]) own.add(`http://${name}:${port}`);
  for (const origin of own) allowed.add(origin);
  log(`listening on ${wsUrl}`);

  let closing: Promise<void> | undefined;
  return {
    url: wsUrl,
    token,
    host,
    port,
    upstreamPid: pool.pid,
    upstreamEnded: pool.ended,
    get upstreamMessageCount() {
      return pool.sentUpstream;
    },
    createLoginCode: () => codes.create(),
    close: () => {
      closing ??= (async () => {
        await pool.close();
        for (const client of wss.clients) client.terminate();
        wss.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        log("closed");
      })();
      return closing;
    },
  };
}

function byteLength(data: Buffer | ArrayBuffer | Buffer[]): number {
  return Array.isArray(data) ? data.reduce((sum, chunk) => sum + chunk.length, 0) : data.byteLength;
}

/** The discovery document (`GET /.well-known/codex-rpc-relay`): where to connect, never the token. */
function serveHttp(request: IncomingMessage, response: ServerResponse, allowed: ReadonlySet<string>, wsUrl: string, consoleDir?: string): void {
  const origin = request.headers.origin;
  if (!originAllowed(origin, allowed)) {
    // Readable by any page (no secret in it), so that a refused page's fetch sees the 403 instead of a CORS failure.
    response.writeHead(403, { "content-type": "text/plain", "access-control-allow-origin": "*" }).end("origin not allowed\n");
    return;
  }
  if (request.method !== "GET" || requestUrl(request)?.pathname !== DISCOVERY_PATH) {
    if (consoleDir !== undefined) return void serveConsoleFile(request, response, consoleDir);
    response.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    return;
  }
  const headers: Record<string, string> = { "content-type": "application/json", "cache-control": "no-store" };
  if (origin !== undefined) headers["access-control-allow-origin"] = origin;
  headers.vary = "Origin";
  const body = { ws: wsUrl, version: VERSION, subprotocol: RELAY_SUBPROTOCOL, tokenSubprotocolPrefix: TOKEN_SUBPROTOCOL_PREFIX };
  response.writeHead(200, headers).end(`${JSON.stringify(body)}\n`);
}

/** Answers a refused upgrade with a plain HTTP response and ends the socket: nothing is upgraded. */
function refuse(socket: Duplex, { status, reason }: Refusal): void {
  const text = { 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found" }[status];
  // Node hands the upgrade's socket over without an 'error' listener: a client that resets the
  // connection would make this write's error an uncaught exception, ending the relay.
  socket.on("error", () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(reason) + 1}\r\n\r\n${reason}\n`,
  );
}
