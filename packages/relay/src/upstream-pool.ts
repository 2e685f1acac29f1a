import { RelayCloseCode, type RelayConnection, RelayMultiplexer, type RelayMultiplexerOptions, type RelayPeer } from "./relay-multiplexer.js";
import { MultiplexerGroup } from "./multiplexer-group.js";
import { openUpstream, type RelayUpstream } from "./upstream.js";

/** How browser connections share app-servers: all one (threads scoped per connection), or one each. */
export type RelayIsolation = "threads" | "process";

/** A browser connection's place on an app-server, and how to give it up. */
export interface ConnectionSession {
  readonly connection: RelayConnection;
  /** The browser side went away. */
  release(): Promise<void>;
}

/** The app-servers behind the relay. */
export interface UpstreamPool {
  attach(peer: RelayPeer): Promise<ConnectionSession>;
  /** The spawned app-server's process id (one shared, spawned app-server only). */
  readonly pid: number | undefined;
  /** Resolves when the shared app-server has gone; never with one per connection. */
  readonly ended: Promise<void>;
  /** Messages sent to app-servers so far, handshakes included. */
  readonly sentUpstream: number;
  close(): Promise<void>;
}

/** One app-server for every connection, opened now. */
export async function sharedUpstream(upstream: RelayUpstream | undefined, options: RelayMultiplexerOptions): Promise<UpstreamPool> {
  const { transport, pid } = await openUpstream(upstream);
  let mux: RelayMultiplexer;
  try {
    mux = await RelayMultiplexer.start(transport, options);
  } catch (error) {
    await transport.close();
    throw error;
  }
  return {
    attach: async (peer) => {
      const connection = mux.attach(peer);
      return { connection, release: async () => connection.detach() };
    },
    pid,
    ended: mux.ended,
    get sentUpstream() {
      return mux.sentUpstream;
    },
    close: () => mux.close(),
  };
}

/**
 * An app-server session of its own for each connection, opened when it connects and closed when it
 * leaves: a process per connection for `spawn`, a WebSocket session per connection for `url` and
 * `socketPath`. (A given `transport` cannot be opened again.)
 */
export function upstreamPerConnection(upstream: RelayUpstream | undefined, options: RelayMultiplexerOptions): UpstreamPool {
  if (upstream !== undefined && "transport" in upstream) {
    throw new TypeError('startRelay: isolation "process" opens an app-server per connection: give `spawn`, `url` or `socketPath`, not a transport');
  }
  const live = new Set<RelayMultiplexer>();
  // Every session shares thread owners and connection numbers: they share an app-server or a CODEX_HOME.
  const sessionOptions: RelayMultiplexerOptions = { ...options, group: new MultiplexerGroup() };
  /** Sessions still opening: close() waits for them, so no app-server starts after it. */
  const opening = new Set<Promise<unknown>>();
  let sentByClosed = 0;
  let closed = false;
  const end = async (mux: RelayMultiplexer) => {
    if (!live.delete(mux)) return;
    await mux.close();
    sentByClosed += mux.sentUpstream;
  };
  return {
    attach: async (peer) => {
      const started = (async () => {
        const { transport } = await openUpstream(upstream);
        return RelayMultiplexer.start(transport, sessionOptions).catch(async (error: unknown) => {
          await transport.close();
          throw error;
        });
      })();
      opening.add(started);
      const mux = await started.finally(() => opening.delete(started));
      live.add(mux);
      if (closed) {
        await end(mux);
        peer.close(RelayCloseCode.goingAway, "the relay is shutting down");
      }
      const connection = mux.attach(peer);
      return { connection, release: () => end(mux) };
    },
    pid: undefined,
    ended: new Promise(() => {}),
    get sentUpstream() {
      return sentByClosed + [...live].reduce((sum, mux) => sum + mux.sentUpstream, 0);
    },
    close: async () => {
      closed = true;
      await Promise.allSettled([...opening]);
      await Promise.all([...live].map(end));
    },
  };
}
