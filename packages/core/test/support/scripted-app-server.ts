// Core's own scripted peer: the in-memory app-server core's tests talk to, over the loopback
// transport (message objects) or, for framing tests, over core's NDJSON transport (bytes). It is
// @codex-rpc/testing's FakeAppServer, kept here so core tests itself without depending on the
// testing kit (which depends on core: a cycle in the package graph).
import { CodexClient, type CodexClientOptions, type JsonRpcMessage, type Transport, type TransportCloseInfo } from "@codex-rpc/core";
import {
  NdjsonDecoder,
  createLoopbackTransportPair,
  createNdjsonTransport,
  encodeNdjsonLine,
  type LoopbackTransport,
} from "@codex-rpc/core/transport";
import { PROTOCOL_VERSION, type ThreadItem, type Turn, type TurnStatus } from "@codex-rpc/protocol";

/** One scripted turn of the fake: the agent's text in chunks, and how it ends. */
export interface ScriptedTurn {
  /** Agent-message deltas, in order (default ["Hello", " from", " the fake"]). */
  readonly deltas?: readonly string[];
  /** Final status (default "completed"). */
  readonly status?: TurnStatus;
  /** Never end by itself: only `turn/interrupt` (→ interrupted) or a crash ends it. */
  readonly hold?: boolean;
  /** Go idle without sending `turn/completed` (as clients in the wild report); `thread/read` shows it ended. */
  readonly dropTurnCompleted?: boolean;
}

export interface ScriptedAppServerOptions {
  /** Answer this many `-32001 Server overloaded` errors to a method before answering it normally. */
  readonly overload?: Readonly<Record<string, number>>;
  /** Scripted turns, consumed one per `turn/start` (default: one plain completed turn each time). */
  readonly turns?: readonly ScriptedTurn[];
  /** Answer nothing at all (a stalled server): requests time out. */
  readonly stalled?: boolean;
  /** The codex version the fake claims in `initialize`'s `userAgent` (default: the protocol package's). */
  readonly codexVersion?: string;
  /** The longest line the client's transport accepts, in bytes (default: the transport's, 128 MiB). */
  readonly maxLineBytes?: number;
  /**
   * How the client and the server are joined: "messages" (default), the loopback transport pair;
   * "ndjson", a real NDJSON byte path, for tests of the framing (`sendRaw`, `maxLineBytes`).
   */
  readonly framing?: "messages" | "ndjson";
}

/** A custom answer to a client request: a result, or a JSON-RPC error. */
export type FakeReply = { readonly result: unknown } | { readonly error: { code: number; message: string; data?: unknown } };

/**
 * An in-memory codex app-server for fault injection and speed: the client talks to it through the
 * loopback transport, or through a real NDJSON byte path (so garbage lines exercise the real
 * framing) with `framing: "ndjson"`, and a test can overload it,
 * crash it, stall it, send raw bytes, notifications and server requests, or drop `turn/completed`.
 * It implements just enough of the protocol: initialize, thread/start, thread/read, turn/start,
 * turn/interrupt. Behaviour that matters is proven against the real codex app-server too.
 */
export class ScriptedAppServer {
  /** The client side: pass it to `CodexClient.connect`. */
  readonly transport: Transport;
  /** Every message the client sent, in order. */
  readonly received: JsonRpcMessage[] = [];
  /** Every line the client sent that was not JSON (should stay empty). */
  readonly undecodable: string[] = [];

  private readonly responders = new Map<string, (params: unknown) => FakeReply | Promise<FakeReply>>();
  private readonly overloadLeft = new Map<string, number>();
  private readonly turnScripts: ScriptedTurn[];
  private readonly serverRequests = new Map<number, (reply: FakeReply) => void>();
  private readonly threads = new Map<string, { turns: Turn[] }>();
  private readonly heldTurns = new Map<string, { threadId: string; turn: Turn; streaming: boolean; interrupted?: boolean }>();
  private sink!: { data(chunk: Uint8Array): void; end(): void; error(error: unknown): void };
  private endWith!: (info: TransportCloseInfo) => void;
  /** The server's end of the loopback pair, when framing is "messages". */
  private readonly peer: LoopbackTransport | undefined;
  private nextServerRequestId = 1000;
  private nextThread = 1;
  private nextTurn = 1;
  private closed = false;

  constructor(private readonly options: ScriptedAppServerOptions = {}) {
    for (const [method, times] of Object.entries(options.overload ?? {})) this.overloadLeft.set(method, times);
    this.turnScripts = [...(options.turns ?? [])];
    if (options.framing !== "ndjson") {
      const [client, server] = createLoopbackTransportPair();
      this.transport = client;
      this.peer = server;
      server.messages$.subscribe({ next: (message) => this.receive(message), complete: () => (this.closed = true) });
      return;
    }
    this.peer = undefined;
    const decoder = new NdjsonDecoder({
      onMessage: (message) => this.receive(message),
      onDiagnostic: (diagnostic) => this.undecodable.push(diagnostic.excerpt ?? diagnostic.message),
    });
    const ended = new Promise<TransportCloseInfo>((resolve) => (this.endWith = resolve));
    this.transport = createNdjsonTransport({
      input: (sink) => (this.sink = sink),
      write: (bytes) => decoder.push(bytes),
      shutdown: async () => {
        this.finish({ reason: "closed" });
        return ended;
      },
      ended,
      ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
    });
  }

  /** Answers a method with this responder instead of the built-in behaviour. */
  respond(method: string, responder: (params: unknown) => FakeReply | Promise<FakeReply>): void {
    this.responders.set(method, responder);
  }

  /** Sends a notification to the client. */
  notify(method: string, params?: unknown): void {
    this.send(params === undefined ? { method } : { method, params });
  }

  /** Sends a request to the client; resolves with its answer (a result or an error). */
  request(method: string, params?: unknown): Promise<FakeReply> {
    const id = this.nextServerRequestId++;
    return new Promise((resolve) => {
      this.serverRequests.set(id, resolve);
      this.send({ id, method, params });
    });
  }

  /**
   * Writes raw text or bytes to the client as they are (e.g. a line that is not JSON), as one chunk:
   * a line sent in several calls reaches the client's framing in several chunks.
   */
  sendRaw(data: string | Uint8Array): void {
    if (this.peer) throw new Error("sendRaw needs framing: \"ndjson\"");
    if (!this.closed) this.sink.data(typeof data === "string" ? new TextEncoder().encode(data) : data);
  }

  /** The server dies: the transport closes with this exit (default: killed by SIGKILL). */
  crash(info: Partial<Omit<TransportCloseInfo, "reason">> = {}): void {
    // An exit code alone is an exit, not a kill; with neither, it was killed by SIGKILL.
    const signal = info.signal !== undefined ? info.signal : info.exitCode == null ? "SIGKILL" : null;
    this.finish({ reason: "exit", exitCode: info.exitCode ?? null, signal, stderrTail: info.stderrTail ?? ["fake app-server crashed"] });
  }

  /** How many server requests still wait for the client's answer. */
  get pendingServerRequests(): number {
    return this.serverRequests.size;
  }

  private finish(info: TransportCloseInfo): void {
    if (this.closed) return;
    this.closed = true;
    if (this.peer) {
      // The client closing its end reaches us as a close too; a crash ends the client's end with info.
      void this.peer.disconnect(info);
      return;
    }
    this.sink.end();
    this.endWith(info);
  }

  private send(message: JsonRpcMessage): void {
    if (this.closed) return;
    if (this.peer) void this.peer.send(message).catch(() => {});
    else this.sink.data(encodeNdjsonLine(message));
  }

  private receive(message: JsonRpcMessage): void {
    this.received.push(message);
    const record = message as unknown as { id?: number | string; method?: string; params?: unknown; result?: unknown; error?: FakeReply & { error: never } };
    if (record.method === undefined) {
      const resolve = typeof record.id === "number" ? this.serverRequests.get(record.id) : undefined;
      if (resolve && typeof record.id === "number") {
        this.serverRequests.delete(record.id);
        resolve("error" in record ? { error: record.error as never } : { result: record.result });
      }
      return;
    }
    if (record.id === undefined || this.options.stalled) return;
    const id = record.id;
    const method = record.method;
    const overloads = this.overloadLeft.get(method) ?? 0;
    if (overloads > 0) {
      this.overloadLeft.set(method, overloads - 1);
      this.send({ id, error: { code: -32001, message: "Server overloaded; retry later." } });
      return;
    }
    const custom = this.responders.has(method);
    void Promise.resolve(this.answer(method, record.params)).then((reply) => {
      this.send({ id, ...reply } as JsonRpcMessage);
      // A custom turn/start responder plays its own turn.
      if (method === "turn/start" && !custom && "result" in reply) this.playTurn(reply.result as { turn: Turn }, record.params as { threadId: string });
    });
  }

  private answer(method: string, params: unknown): FakeReply | Promise<FakeReply> {
    const custom = this.responders.get(method);
    if (custom) return custom(params);
    const p = (params ?? {}) as { threadId?: string; turnId?: string };
    switch (method) {
      case "initialize":
        return { result: { userAgent: `fake-app-server/${this.options.codexVersion ?? PROTOCOL_VERSION} (fake)`, codexHome: "/tmp/fake-codex-home", platformFamily: "unix", platformOs: "linux" } };
      case "thread/start": {
        const id = `thread-${this.nextThread++}`;
        this.threads.set(id, { turns: [] });
        return {
          result: {
            thread: fakeThread(id, []),
            model: "fake-model",
            modelProvider: "fake",
            cwd: "/tmp",
            approvalPolicy: "never",
            approvalsReviewer: "user",
            disabledPluginIds: [],
            instructionSources: [],
            reasoningEffort: null,
            sandbox: { type: "dangerFullAccess" },
            serviceTier: null,
          },
        };
      }
      case "thread/read": {
        const thread = this.threads.get(p.threadId ?? "");
        if (!thread) return { error: { code: -32600, message: `thread not found: ${p.threadId}` } };
        return { result: { thread: fakeThread(p.threadId as string, thread.turns), readState: null } };
      }
      case "turn/start": {
        if (!this.threads.has(p.threadId ?? "")) return { error: { code: -32600, message: `thread not found: ${p.threadId}` } };
        return { result: { turn: fakeTurn(`turn-${this.nextTurn++}`, "inProgress", []) } };
      }
      case "turn/interrupt": {
        const held = this.heldTurns.get(p.turnId ?? "");
        if (held) {
          this.heldTurns.delete(p.turnId as string);
          // A turn interrupted before it started streaming ends when its stream would have begun.
          if (held.streaming) this.endTurn(held.threadId, { ...held.turn, status: "interrupted" }, {});
          else held.interrupted = true;
        }
        return { result: {} };
      }
      default:
        return { error: { code: -32601, message: `fake app-server does not implement ${method}` } };
    }
  }

  /** Streams a scripted turn after its `turn/start` reply, as the real server does. */
  private playTurn({ turn }: { turn: Turn }, { threadId }: { threadId: string }): void {
    const script = this.turnScripts.shift() ?? {};
    const deltas = script.deltas ?? ["Hello", " from", " the fake"];
    const itemId = `${turn.id}-message`;
    const text = deltas.join("");
    const held = script.hold ? { threadId, turn, streaming: false, interrupted: false } : undefined;
    if (held) this.heldTurns.set(turn.id, held);
    setTimeout(() => {
      this.notify("turn/started", { threadId, turn });
      if (held?.interrupted) {
        this.endTurn(threadId, { ...turn, status: "interrupted" }, {});
        return;
      }
      this.notify("thread/status/changed", { threadId, status: { type: "active", activeFlags: [] } });
      const started: ThreadItem = { type: "agentMessage", id: itemId, text: "", phase: null, memoryCitation: null } as ThreadItem;
      this.notify("item/started", { threadId, turnId: turn.id, item: started, startedAtMs: Date.now() });
      for (const delta of deltas) this.notify("item/agentMessage/delta", { threadId, turnId: turn.id, itemId, delta });
      const completed = { ...started, text } as ThreadItem;
      if (held) {
        held.streaming = true;
        held.turn = { ...turn, items: [completed] };
        return;
      }
      this.notify("item/completed", { threadId, turnId: turn.id, item: completed, completedAtMs: Date.now() });
      this.endTurn(threadId, { ...turn, status: script.status ?? "completed", items: [completed] }, script);
    }, 0);
  }

  private endTurn(threadId: string, turn: Turn, script: ScriptedTurn): void {
    this.threads.get(threadId)?.turns.push(turn);
    this.notify("thread/status/changed", { threadId, status: { type: "idle" } });
    // The real server's turn/completed carries no items (they were streamed).
    if (!script.dropTurnCompleted) this.notify("turn/completed", { threadId, turn: { ...turn, items: [] } });
  }
}

function fakeTurn(id: string, status: TurnStatus, items: ThreadItem[]): Turn {
  return { id, status, items, error: null, startedAt: null, completedAt: null, durationMs: null, itemsView: "full", rootTurnId: null } as Turn;
}

/** A Thread with every field the 0.169.0 schema requires, so clients that validate accept the fake's replies. */
function fakeThread(id: string, turns: Turn[]) {
  return {
    id,
    sessionId: `session-${id}`,
    turns,
    preview: "",
    cwd: "/tmp",
    status: { type: "idle" },
    createdAt: 0,
    updatedAt: 0,
    modelProvider: "fake",
    cliVersion: "0.0.0",
    agentNickname: null,
    agentRole: null,
    ephemeral: false,
    forkedFromId: null,
    gitInfo: null,
    historyMode: "legacy",
    model: null,
    name: null,
    originator: null,
    parentThreadId: null,
    path: null,
    projectId: null,
    reasoningEffort: null,
    recencyAt: null,
    section: null,
    sectionEnteredAt: null,
    source: "appServer",
    threadSource: null,
  };
}

/** A scripted server and a client connected to it (overload retries shortened for speed). */
export async function connect(serverOptions: ScriptedAppServerOptions = {}, clientOptions: CodexClientOptions = {}) {
  const server = new ScriptedAppServer(serverOptions);
  const client = await CodexClient.connect(server.transport, { overloadRetry: { initialDelayMs: 1, maxDelayMs: 5 }, ...clientOptions });
  return { server, client };
}
