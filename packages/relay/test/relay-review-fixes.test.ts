// Issue 15 (a review of the relay), the findings that are the relay's own logic, against the
// in-memory FakeAppServer: the answer-side thread check, rollout paths, search results, processes
// and other per-connection ids, the rate limit on unparsable frames, handshakes `ws` aborts, the
// discovery 403's CORS header, pages leaving mid-request, and symlinks out of the console folder.
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { type FakePeer, fakePeer, tick } from "./support/fake-peer.js";
import { DISCOVERY_PATH, RelayCloseCode, RelayErrorCode, type RelayHandle, RelayMultiplexer, type RelayMultiplexerOptions, startRelay } from "../src/index.js";
import { LOGIN_CODE_PATH, LoginCodes } from "../src/login-codes.js";
import { canonicalThreadId } from "../src/thread-id.js";
import { call, closeCode, tryUpgrade } from "./support/relay-clients.js";

const answerTo = (peer: FakePeer, id: number | string) => peer.sent.find((message) => message.id === id && message.method === undefined);
const methodsOf = (peer: FakePeer) => peer.sent.map((message) => message.method).filter(Boolean);

async function setup(options: RelayMultiplexerOptions = {}) {
  const server = new FakeAppServer();
  const mux = await RelayMultiplexer.start(server.transport, options);
  const open = () => {
    const peer = fakePeer();
    const connection = mux.attach(peer);
    connection.receive({ id: 0, method: "initialize", params: { clientInfo: { name: "page", version: "0" } } });
    connection.receive({ method: "initialized" });
    return { peer, connection };
  };
  const upstream = (method: string) => server.received.filter((message) => "method" in message && message.method === method);
  return { server, mux, open, upstream };
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function relayOverFake(options: Parameters<typeof startRelay>[0] = {}): Promise<RelayHandle> {
  const relay = await startRelay({ upstream: { transport: new FakeAppServer().transport }, ...options });
  cleanups.push(() => relay.close());
  return relay;
}

describe("thread ids (findings 1 and 2)", () => {
  it("canonicalThreadId: every UUID spelling codex accepts becomes lower-case hyphenated; anything else is unchanged", () => {
    const id = "01a20ce0-dd98-7e43-9511-0cea483dded5";
    for (const spelling of [id, id.toUpperCase(), id.replaceAll("-", ""), `{${id}}`, `urn:uuid:${id}`, `URN:UUID:${id.toUpperCase()}`]) {
      expect(canonicalThreadId(spelling)).toBe(id);
    }
    expect(canonicalThreadId("thread-1")).toBe("thread-1");
    expect(canonicalThreadId(`${id}x`)).toBe(`${id}x`);
  });

  it("an answer naming another connection's thread is refused (-32003) and ownership does not move", async () => {
    const { server, mux, open } = await setup();
    const a = open();
    const b = open();
    a.connection.receive({ id: 1, method: "thread/start", params: {} });
    await tick();
    // However B named it, codex answered with A's thread.
    server.respond("thread/resume", () => ({ result: { thread: { id: "thread-1" } } }));
    server.respond("thread/read", () => ({ result: { thread: { id: "thread-1" } } }));
    b.connection.receive({ id: 1, method: "thread/resume", params: { threadId: "0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b" } });
    b.connection.receive({ id: 2, method: "thread/read", params: { threadId: "0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b" } });
    await tick();
    expect(answerTo(b.peer, 1)?.error.code).toBe(RelayErrorCode.threadNotOwned);
    expect(answerTo(b.peer, 2)?.error.code).toBe(RelayErrorCode.threadNotOwned);
    expect(mux.threadsOf(a.connection)).toEqual(["thread-1"]);
    expect(mux.threadsOf(b.connection)).toEqual([]);
    server.notify("item/agentMessage/delta", { threadId: "thread-1", turnId: "t", itemId: "i", delta: "x" });
    await tick();
    expect(methodsOf(a.peer)).toContain("item/agentMessage/delta");
    expect(methodsOf(b.peer)).not.toContain("item/agentMessage/delta");
  });

  it("`path` and `history` on thread/resume and thread/fork are refused unless allowRolloutPaths", async () => {
    const { open, upstream } = await setup();
    const b = open();
    b.connection.receive({ id: 1, method: "thread/resume", params: { threadId: "x", path: "/home/a/.codex/sessions/rollout.jsonl" } });
    b.connection.receive({ id: 2, method: "thread/fork", params: { threadId: "x", path: "/home/a/.codex/sessions/rollout.jsonl" } });
    b.connection.receive({ id: 3, method: "thread/resume", params: { threadId: "x", history: [] } });
    await tick();
    for (const id of [1, 2, 3]) expect(answerTo(b.peer, id)?.error.code).toBe(RelayErrorCode.threadNotOwned);
    expect([...upstream("thread/resume"), ...upstream("thread/fork")]).toEqual([]);

    const allowed = await setup({ allowRolloutPaths: true });
    allowed.open().connection.receive({ id: 1, method: "thread/resume", params: { threadId: "x", path: "/tmp/rollout.jsonl" } });
    await tick();
    expect(allowed.upstream("thread/resume")).toHaveLength(1);
  });
});

describe("results that list threads (finding 3)", () => {
  it("thread/search and thread/attachmentOwner/list leave out another connection's threads", async () => {
    const { server, open } = await setup();
    const a = open();
    const b = open();
    a.connection.receive({ id: 1, method: "thread/start", params: {} });
    await tick();
    server.respond("thread/search", () => ({
      result: {
        data: [
          { thread: { id: "thread-1" }, snippet: "A's secret" },
          { thread: { id: "on-disk" }, snippet: "old" },
        ],
        nextCursor: null,
        backwardsCursor: null,
      },
    }));
    server.respond("thread/attachmentOwner/list", () => ({
      result: {
        data: [
          { threadId: "thread-1", archived: false },
          { threadId: "on-disk", archived: false },
        ],
        nextCursor: null,
      },
    }));
    b.connection.receive({ id: 1, method: "thread/search", params: { searchTerm: "secret" } });
    b.connection.receive({ id: 2, method: "thread/attachmentOwner/list", params: { attachmentType: "x", identityKey: "y" } });
    a.connection.receive({ id: 2, method: "thread/search", params: { searchTerm: "secret" } });
    await tick();
    expect(answerTo(b.peer, 1)?.result.data).toEqual([{ thread: { id: "on-disk" }, snippet: "old" }]);
    expect(answerTo(b.peer, 2)?.result.data).toEqual([{ threadId: "on-disk", archived: false }]);
    expect(answerTo(a.peer, 2)?.result.data).toHaveLength(2);
  });
});

describe("processes, watches and sessions (finding 4)", () => {
  const paramsOf = (message: unknown) => (message as { params: Record<string, unknown> }).params;

  it("ids a page chooses go upstream in its own namespace: two pages may both use p1, and each gets only its own output", async () => {
    const { server, open, upstream } = await setup();
    server.respond("command/exec", () => ({ result: { exitCode: 0, stdout: "", stderr: "" } }));
    server.respond("fs/watch", (params) => ({ result: { path: (params as { path: string }).path } }));
    const a = open();
    const b = open();
    a.connection.receive({ id: 1, method: "command/exec", params: { command: ["ls"], processId: "p1", streamStdoutStderr: true } });
    b.connection.receive({ id: 1, method: "command/exec", params: { command: ["ls"], processId: "p1", streamStdoutStderr: true } });
    a.connection.receive({ id: 2, method: "fs/watch", params: { path: "/tmp", watchId: "w1" } });
    await tick();
    const [fromA, fromB] = upstream("command/exec").map((message) => paramsOf(message).processId as string);
    expect(fromA).not.toBe(fromB);
    expect(fromA).toMatch(/\.p1$/);
    expect(fromB).toMatch(/\.p1$/);
    const watch = paramsOf(upstream("fs/watch")[0]).watchId as string;
    // Both answered: neither took p1 from the other.
    expect(answerTo(a.peer, 1)?.result).toEqual({ exitCode: 0, stdout: "", stderr: "" });
    expect(answerTo(b.peer, 1)?.result).toEqual({ exitCode: 0, stdout: "", stderr: "" });

    server.notify("command/exec/outputDelta", { processId: fromA, stream: "stdout", deltaBase64: "YQ==", capReached: false });
    server.notify("command/exec/outputDelta", { processId: fromB, stream: "stdout", deltaBase64: "Yg==", capReached: false });
    server.notify("fs/changed", { watchId: watch, changedPaths: ["/tmp/x"] });
    await tick();
    const deltas = (peer: FakePeer) => peer.sent.filter((message) => message.method === "command/exec/outputDelta").map((message) => message.params);
    expect(deltas(a.peer)).toEqual([{ processId: "p1", stream: "stdout", deltaBase64: "YQ==", capReached: false }]);
    expect(deltas(b.peer)).toEqual([{ processId: "p1", stream: "stdout", deltaBase64: "Yg==", capReached: false }]);
    expect(a.peer.sent.find((message) => message.method === "fs/changed")?.params).toEqual({ watchId: "w1", changedPaths: ["/tmp/x"] });
    expect(methodsOf(b.peer)).not.toContain("fs/changed");
  });

  it("a page naming another page's id names its own instead; codex's error quotes the id as the page wrote it", async () => {
    const { server, open, upstream } = await setup();
    server.respond("command/exec", () => ({ result: { exitCode: 0, stdout: "", stderr: "" } }));
    // codex 0.169.0's own wording, measured: it quotes the id it was given.
    server.respond("command/exec/terminate", (params) => ({
      error: { code: -32600, message: `no active command/exec for process id "${(params as { processId: string }).processId}"` },
    }));
    const a = open();
    const b = open();
    a.connection.receive({ id: 1, method: "command/exec", params: { command: ["sleep", "9"], processId: "p1" } });
    b.connection.receive({ id: 1, method: "command/exec/terminate", params: { processId: "p1" } });
    await tick();
    const [exec] = upstream("command/exec");
    const [terminate] = upstream("command/exec/terminate");
    expect(paramsOf(terminate).processId).not.toBe(paramsOf(exec).processId);
    expect(answerTo(b.peer, 1)?.error).toEqual({ code: -32600, message: 'no active command/exec for process id "p1"' });
  });

  it("notifications naming an id no page chose, or a page that left, are dropped; server-chosen ids go to their owner; the rest to everyone", async () => {
    const { server, open } = await setup();
    server.respond("fs/watch", () => ({ result: {} }));
    server.respond("externalAgentConfig/import", () => ({ result: { importId: "imp-1" } }));
    const a = open();
    const b = open();
    const gone = open();
    a.connection.receive({ id: 3, method: "externalAgentConfig/import", params: {} });
    gone.connection.receive({ id: 1, method: "fs/watch", params: { path: "/tmp", watchId: "w1" } });
    await tick();
    const goneWatch = paramsOf(server.received.find((message) => "method" in message && message.method === "fs/watch")).watchId as string;
    gone.connection.detach();
    for (const [method, params] of [
      ["command/exec/outputDelta", { processId: "p1", stream: "stdout", deltaBase64: "aGk=", capReached: false }],
      ["process/exited", { processHandle: "h9", exitCode: 0 }],
      ["fs/changed", { watchId: goneWatch, changedPaths: ["/tmp/x"] }],
      ["fuzzyFileSearch/sessionUpdated", { sessionId: "nobody's", query: "", files: [] }],
      ["externalAgentConfig/import/completed", { importId: "imp-1", itemTypeResults: [] }],
      ["account/rateLimits/updated", { rateLimits: {} }],
    ] as const) {
      server.notify(method, params);
    }
    await tick();
    expect(methodsOf(a.peer)).toEqual(["externalAgentConfig/import/completed", "account/rateLimits/updated"]);
    expect(methodsOf(b.peer)).toEqual(["account/rateLimits/updated"]);
  });

  it("a server-chosen id another connection owns is refused before it reaches the app-server", async () => {
    const { server, open } = await setup();
    server.respond("externalAgentConfig/import", () => ({ result: { importId: "imp-1" } }));
    const a = open();
    const b = open();
    a.connection.receive({ id: 1, method: "externalAgentConfig/import", params: {} });
    await tick();
    const before = server.received.length;
    b.connection.receive({ id: 1, method: "externalAgentConfig/import/cancel", params: { importId: "imp-1" } });
    await tick();
    expect(answerTo(b.peer, 1)?.error.code).toBe(RelayErrorCode.threadNotOwned);
    expect(server.received.length).toBe(before);
  });
});

describe("pages leaving mid-request (finding 10)", () => {
  it("a thread/start answered after its page left is unsubscribed", async () => {
    const { server, mux, open, upstream } = await setup();
    server.respond("thread/unsubscribe", () => ({ result: { status: "unsubscribed" } }));
    let answer!: () => void;
    server.respond("thread/start", () => new Promise((resolve) => (answer = () => resolve({ result: { thread: { id: "late" } } }))));
    const a = open();
    a.connection.receive({ id: 1, method: "thread/start", params: {} });
    await tick();
    a.connection.detach();
    answer();
    await tick();
    expect(upstream("thread/unsubscribe").map((message) => (message as { params: unknown }).params)).toEqual([{ threadId: "late" }]);
    expect(mux.threadsOf(a.connection)).toEqual([]);
  });

  it("a leaving page's cleanup does not unsubscribe a thread another page resumed meanwhile", async () => {
    const { server, mux, open, upstream } = await setup();
    let interrupted!: () => void;
    server.respond("turn/interrupt", () => new Promise((resolve) => (interrupted = () => resolve({ result: {} }))));
    server.respond("thread/unsubscribe", () => ({ result: { status: "unsubscribed" } }));
    server.respond("thread/resume", (params) => ({ result: { thread: { id: (params as { threadId: string }).threadId } } }));
    const a = open();
    a.connection.receive({ id: 1, method: "thread/start", params: {} });
    await tick();
    server.notify("turn/started", { threadId: "thread-1", turn: { id: "turn-1", items: [], status: "inProgress" } });
    await tick();
    a.connection.detach(); // interrupt sent, unsubscribe waits for its answer
    const b = open();
    b.connection.receive({ id: 1, method: "thread/resume", params: { threadId: "thread-1" } });
    await tick();
    expect(mux.threadsOf(b.connection)).toEqual(["thread-1"]);
    interrupted();
    await tick();
    expect(upstream("thread/unsubscribe")).toEqual([]);
  });
});

describe("startRelay (findings 7, 8, 9, 10)", () => {
  it("frames that are not JSON count against the rate limit", async () => {
    const relay = await relayOverFake({ rateLimit: { perSecond: 1, burst: 5 } });
    const outcome = await tryUpgrade(relay.url, { token: relay.token });
    if (!("socket" in outcome)) throw new Error(`refused: ${outcome.status}`);
    const closed = closeCode(outcome.socket);
    for (let i = 0; i < 50; i++) outcome.socket.send("not json");
    expect(await closed).toBe(RelayCloseCode.rateLimited);
  });

  it("handshakes `ws` aborts (no Sec-WebSocket-Key) are not counted as connections", async () => {
    const relay = await relayOverFake({ maxConnections: 1 });
    for (let i = 0; i < 3; i++) {
      await new Promise<void>((resolve) => {
        const socket = connect(relay.port, "127.0.0.1", () => {
          socket.write(
            `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: codex-rpc.v1, codex-rpc.token.${relay.token}\r\n\r\n`,
          );
        });
        socket.on("data", () => {});
        socket.on("close", () => resolve());
        socket.on("error", () => resolve());
      });
    }
    const outcome = await tryUpgrade(relay.url, { token: relay.token });
    if (!("socket" in outcome)) throw new Error(`refused: ${outcome.status}`);
    expect((await call(outcome.socket, 1, "initialize", { clientInfo: { name: "p", version: "0" } })).result).toBeDefined();
    outcome.socket.close();
  });

  it("the discovery 403 is readable cross-origin (Access-Control-Allow-Origin: *), without the token", async () => {
    const relay = await relayOverFake();
    const response = await fetch(`http://127.0.0.1:${relay.port}${DISCOVERY_PATH}`, { headers: { origin: "http://evil.example" } });
    expect(response.status).toBe(403);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(await response.text()).not.toContain(relay.token);
  });

  it("the console file server does not follow a symlink out of its folder", async () => {
    const root = await mkdtemp(join(tmpdir(), "codex-rpc-console-"));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const dir = join(root, "console");
    await mkdir(dir);
    await writeFile(join(dir, "index.html"), "<!doctype html>");
    await writeFile(join(root, "secret.js"), "the secret");
    await symlink(join(root, "secret.js"), join(dir, "leak.js"));
    const relay = await relayOverFake({ consoleDir: dir });
    const response = await fetch(`http://127.0.0.1:${relay.port}/leak.js`);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain("the secret");
    expect((await fetch(`http://127.0.0.1:${relay.port}/`)).status).toBe(200);
  });
});

describe("one-time login codes (finding 5)", () => {
  const exchange = (relay: RelayHandle, code: string, origin: string | undefined) =>
    fetch(`http://127.0.0.1:${relay.port}${LOGIN_CODE_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(origin === undefined ? {} : { origin }) },
      body: JSON.stringify({ code }),
    });

  it("a code is exchanged for the token once, only from the relay's own origin", async () => {
    const relay = await relayOverFake({ allowedOrigins: ["http://localhost:5173"] });
    const own = `http://127.0.0.1:${relay.port}`;
    const code = relay.createLoginCode();
    expect(code).not.toContain(relay.token);
    expect((await exchange(relay, code, "http://evil.example")).status).toBe(403);
    expect((await exchange(relay, code, "http://localhost:5173")).status).toBe(403); // allowed to connect, not to exchange
    expect((await exchange(relay, code, undefined)).status).toBe(403);
    const first = await exchange(relay, code, own);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ token: relay.token });
    expect((await exchange(relay, code, own)).status).toBe(403); // used up
    expect((await exchange(relay, "x".repeat(43), own)).status).toBe(403);
  });

  it("a code dies after its TTL", () => {
    const codes = new LoginCodes(60_000);
    const code = codes.create(0);
    expect(codes.redeem(code, 60_000)).toBe(false);
    const live = codes.create(0);
    expect(codes.redeem(live, 59_999)).toBe(true);
    expect(codes.redeem(live, 59_999)).toBe(false);
  });
});
