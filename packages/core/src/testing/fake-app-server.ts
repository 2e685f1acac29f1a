import { PROTOCOL_VERSION, type ThreadItem, type Turn, type TurnStatus } from "@codex-rpc/protocol";
import { InvalidOptionError, type TransportCloseInfo } from "../errors/errors.js";
import type { JsonRpcMessage } from "../framing/json-rpc-message.js";
import type { Transport } from "../transport/transport.js";
import { fakeThread, fakeThreadStartResult, fakeTurn } from "./fake-records.js";
import { loopbackJoin, ndjsonJoin, type JoinListener, type ServerJoin } from "./fake-server-join.js";

/** One scripted turn of the fake: the agent's text in chunks, and how it ends. */
export interface FakeTurnScript {
  /** Agent-message deltas, in order (default ["Hello", " from", " the fake"]). */
  readonly deltas?: readonly string[];
  /** Final status (default "completed"). */
  readonly status?: TurnStatus;
  /** Never end by itself: only `turn/interrupt` (→ interrupted) or a crash ends it. */
  readonly hold?: boolean;
  /** Go idle without sending `turn/completed` (as clients in the wild report); `thread/read` shows it ended. */
  readonly dropTurnCompleted?: boolean;
}

export interface FakeAppServerOptions {
  /**
   * How the client and the server are joined: "messages" (default), the loopback transport pair
   * (message objects, no bytes); "ndjson", a real NDJSON byte path, for tests of the framing
   * (`sendRaw`, `maxLineBytes`, `undecodable`).
   */
  readonly framing?: "messages" | "ndjson";
  /** Answer this many `-32001 Server overloaded` errors to a method before answering it normally. */
  readonly overload?: Readonly<Record<string, number>>;
  /** Scripted turns, consumed one per `turn/start` (default: one plain completed turn each time). */
  readonly turns?: readonly FakeTurnScript[];
  /** Answer nothing at all (a stalled server): requests time out. */
  readonly stalled?: boolean;
  /** The codex version the fake claims in `initialize`'s `userAgent` (default: the protocol package's). */
  readonly codexVersion?: string;
  /** The longest line the client's transport accepts, in bytes (default: the transport's, 128 MiB). Needs `framing: "ndjson"`. */
  readonly maxLineBytes?: number;
}

/** A custom answer to a client request: a result, or a JSON-RPC error. */
export type FakeReply = { readonly result: unknown } | { readonly error: { code: number; message: string; data?: unknown } };

/**
 * An in-memory codex app-server for fault injection and speed: the client talks to it through the
 * loopback transport pair, or with `framing: "ndjson"` through a real NDJSON byte path (so garbage
 * lines exercise the real framing), and a test can overload it, crash it, stall it, send raw bytes,
 * notifications and server requests, or drop `turn/completed`. It implements just enough of the
 * protocol: initialize, thread/start, thread/read, turn/start, turn/interrupt. Behaviour that
 * matters is proven against the real codex app-server too.
 */
export class FakeAppServer {
  /** The client side: pass it to `CodexClient.connect`. */
  readonly transport: Transport;
  /** Every message the client sent, in order. */
  readonly received: JsonRpcMessage[] = [];
  /** Every line the client sent that was not JSON (should stay empty; only `framing: "ndjson"` has lines). */
  readonly undecodable: string[] = [];

  private readonly join: ServerJoin;
  private readonly responders = new Map<string, (params: unknown) => FakeReply | Promise<FakeReply>>();
  private readonly overloadLeft = new Map<string, number>();
  private readonly turnScripts: FakeTurnScript[];
  private readonly serverRequests = new Map<number, (reply: FakeReply) => void>();
  private readonly threads = new Map<string, { turns: Turn[] }>();
  private readonly heldTurns = new Map<string, { threadId: string; turn: Turn; streaming: boolean }>();
  private nextServerRequestId = 1000;
  private nextThread = 1;
  private nextTurn = 1;

  constructor(private readonly options: FakeAppServerOptions = {}) {
    for (const [method, times] of Object.entries(options.overload ?? {})) this.overloadLeft.set(method, times);
    this.turnScripts = [...(options.turns ?? [])];
    const listener: JoinListener = {
      message: (message) => this.receive(message),
      undecodable: (excerpt) => this.undecodable.push(excerpt),
    };
    if (options.framing === "ndjson") this.join = ndjsonJoin(listener, options.maxLineBytes);
    else if (options.maxLineBytes !== undefined) throw new InvalidOptionError("maxLineBytes", 'caps lines, which only `framing: "ndjson"` has');
    else this.join = loopbackJoin(listener);
    this.transport = this.join.transport;
  }

  /** Answers a method with this responder instead of the built-in behaviour. */
  respond(method: string, responder: (params: unknown) => FakeReply | Promise<FakeReply>): void {
    this.responders.set(method, responder);
  }

  /** Sends a notification to the client. */
  notify(method: string, params?: unknown): void {
    this.join.send(params === undefined ? { method } : { method, params });
  }

  /** Sends a request to the client; resolves with its answer (a result or an error). */
  request(method: string, params?: unknown): Promise<FakeReply> {
    const id = this.nextServerRequestId++;
    return new Promise((resolve) => {
      this.serverRequests.set(id, resolve);
      this.join.send({ id, method, params });
    });
  }

  /**
   * Writes raw text or bytes to the client as they are (e.g. a line that is not JSON), as one chunk:
   * a line sent in several calls reaches the client's framing in several chunks. Needs `framing: "ndjson"`.
   */
  sendRaw(data: string | Uint8Array): void {
    this.join.sendRaw(typeof data === "string" ? new TextEncoder().encode(data) : data);
  }

  /** The server dies: the transport closes with this exit (default: killed by SIGKILL). */
  crash(info: Partial<Omit<TransportCloseInfo, "reason">> = {}): void {
    // An exit code alone is an exit, not a kill; with neither, it was killed by SIGKILL.
    const signal = info.signal !== undefined ? info.signal : info.exitCode == null ? "SIGKILL" : null;
    this.join.end({ reason: "exit", exitCode: info.exitCode ?? null, signal, stderrTail: info.stderrTail ?? ["fake app-server crashed"] });
  }

  /** How many server requests still wait for the client's answer. */
  get pendingServerRequests(): number {
    return this.serverRequests.size;
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
      this.join.send({ id, error: { code: -32001, message: "Server overloaded; retry later." } });
      return;
    }
    const custom = this.responders.has(method);
    void Promise.resolve(this.answer(method, record.params)).then((reply) => {
      this.join.send({ id, ...reply } as JsonRpcMessage);
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
        return {
          result: {
            userAgent: `fake-app-server/${this.options.codexVersion ?? PROTOCOL_VERSION} (fake)`,
            codexHome: "/tmp/fake-codex-home",
            platformFamily: "unix",
            platformOs: "linux",
          },
        };
      case "thread/start": {
        const id = `thread-${this.nextThread++}`;
        this.threads.set(id, { turns: [] });
        return { result: fakeThreadStartResult(id) };
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
        // As codex (0.160.0–0.169.0): a turn it has answered `turn/start` for but not begun yet
        // (no `turn/started`) is not active, and the interrupt is refused; the turn then runs on.
        if (held && !held.streaming) return { error: { code: -32600, message: "no active turn to interrupt" } };
        if (held) {
          this.heldTurns.delete(p.turnId as string);
          this.endTurn(held.threadId, { ...held.turn, status: "interrupted" }, {});
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
    const held = script.hold ? { threadId, turn, streaming: false } : undefined;
    if (held) this.heldTurns.set(turn.id, held);
    setTimeout(() => {
      this.notify("turn/started", { threadId, turn });
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

  private endTurn(threadId: string, turn: Turn, script: FakeTurnScript): void {
    this.threads.get(threadId)?.turns.push(turn);
    this.notify("thread/status/changed", { threadId, status: { type: "idle" } });
    // The real server's turn/completed carries no items (they were streamed).
    if (!script.dropTurnCompleted) this.notify("turn/completed", { threadId, turn: { ...turn, items: [] } });
  }
}
