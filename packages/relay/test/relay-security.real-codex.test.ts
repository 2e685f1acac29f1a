import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CodexClient, JsonRpcMessage } from "@codex-rpc/core";
import type { MockResponsesProvider, CodexHome } from "@codex-rpc/testing";
import { RelayCloseCode, RelayErrorCode, type RelayHandle, startRelay } from "../src/index.js";
import { spawnCodexInHome } from "./support/codex-in-home.js";
import { recordingTransport } from "./support/recording-transport.js";
import { call, closeCode, connectThroughRelay, tryUpgrade } from "./support/relay-clients.js";

const ORIGIN = "http://localhost:5173";
const MAX_MESSAGE_BYTES = 64 * 1024;
const RATE = { perSecond: 20, burst: 40 };
const MAX_CONNECTIONS = 6;

let provider: MockResponsesProvider;
let home: CodexHome;
let relay: RelayHandle;
let owner: CodexClient;
let ownerThreadId: string;
const up: JsonRpcMessage[] = [];
const table: { attack: string; outcome: string; upstream: string }[] = [];

beforeAll(async () => {
  let workspace: string;
  let spawned: Awaited<ReturnType<typeof spawnCodexInHome>>["spawned"];
  ({ provider, home, workspace, spawned } = await spawnCodexInHome([]));
  relay = await startRelay({
    upstream: { transport: recordingTransport(spawned, up) },
    allowedOrigins: [ORIGIN],
    maxMessageBytes: MAX_MESSAGE_BYTES,
    rateLimit: RATE,
    maxConnections: MAX_CONNECTIONS,
  });
  owner = await connectThroughRelay(relay.url, { token: relay.token, origin: ORIGIN });
  ownerThreadId = (await owner.startThread({ cwd: workspace, approvalPolicy: "never" })).id;
});

afterAll(async () => {
  await owner?.close();
  await relay?.close();
  await provider?.close();
  await home?.cleanup();
  const width = Math.max(...table.map((row) => row.attack.length));
  const outcomeWidth = Math.max(...table.map((row) => row.outcome.length));
  console.log(
    [
      "relay security table (codex 0.169.0 behind the relay):",
      `${"attack".padEnd(width)} | ${"outcome".padEnd(outcomeWidth)} | reached the app-server`,
      `${"-".repeat(width)}-|-${"-".repeat(outcomeWidth)}-|-----------------------`,
      ...table.map((row) => `${row.attack.padEnd(width)} | ${row.outcome.padEnd(outcomeWidth)} | ${row.upstream}`),
    ].join("\n"),
  );
});

/** Runs an attack and records how many messages reached the app-server meanwhile. */
async function attack(name: string, run: () => Promise<string>, allowedUpstream = 0): Promise<void> {
  const before = up.length;
  const outcome = await run();
  // Anything the attack made the relay send would have been sent synchronously on receipt; give it a moment anyway.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const reached = up.slice(before);
  table.push({ attack: name, outcome, upstream: reached.length === 0 ? "nothing" : `${reached.length} messages (within the ${allowedUpstream} allowed)` });
  expect(reached.length).toBeLessThanOrEqual(allowedUpstream);
}

describe("relay security table", () => {
  it("a foreign Origin: 403 before the upgrade", () =>
    attack("foreign origin (http://evil.example)", async () => {
      const outcome = await tryUpgrade(relay.url, { token: relay.token, origin: "http://evil.example" });
      expect(outcome).toMatchObject({ status: 403 });
      return "HTTP 403, no upgrade";
    }));

  it("no token: 401", () =>
    attack("no token", async () => {
      const outcome = await tryUpgrade(relay.url, { origin: ORIGIN });
      expect(outcome).toMatchObject({ status: 401 });
      return "HTTP 401, no upgrade";
    }));

  it("a wrong token: 401", () =>
    attack("wrong token", async () => {
      const outcome = await tryUpgrade(relay.url, { token: `${relay.token.slice(0, -1)}x`, origin: ORIGIN });
      expect(outcome).toMatchObject({ status: 401 });
      return "HTTP 401, no upgrade";
    }));

  it("the token in the URL: 400, even with the right subprotocol", () =>
    attack("token in the URL (?token=…)", async () => {
      const outcome = await tryUpgrade(`${relay.url}?token=${relay.token}`, { token: relay.token, origin: ORIGIN });
      expect(outcome).toMatchObject({ status: 400 });
      expect((outcome as { body: string }).body).not.toContain(relay.token);
      return "HTTP 400, no upgrade";
    }));

  it("another connection's thread id: a JSON-RPC error, nothing forwarded", async () => {
    const outcome = await tryUpgrade(relay.url, { token: relay.token, origin: ORIGIN });
    if (!("socket" in outcome)) throw new Error(`upgrade refused: ${outcome.status}`);
    const { socket } = outcome;
    expect(await call(socket, 1, "initialize", { clientInfo: { name: "intruder", version: "0" } })).toHaveProperty("result");
    socket.send(JSON.stringify({ method: "initialized" }));
    await attack("another connection's thread id (turn/start, thread/read, thread/resume, thread/fork)", async () => {
      for (const [id, method, params] of [
        [2, "turn/start", { threadId: ownerThreadId, input: [{ type: "text", text: "hi", text_elements: [] }] }],
        [3, "thread/read", { threadId: ownerThreadId }],
        [4, "thread/resume", { threadId: ownerThreadId }],
        [5, "thread/fork", { threadId: ownerThreadId }],
      ] as const) {
        const answer = await call(socket, id, method, params);
        expect(answer.error).toMatchObject({ code: RelayErrorCode.threadNotOwned });
      }
      return `JSON-RPC error ${RelayErrorCode.threadNotOwned} ×4`;
    });
    socket.close();
  });

  it("an oversize message: the connection closes with 1009", async () => {
    const outcome = await tryUpgrade(relay.url, { token: relay.token, origin: ORIGIN });
    if (!("socket" in outcome)) throw new Error(`upgrade refused: ${outcome.status}`);
    const { socket } = outcome;
    await call(socket, 1, "initialize", { clientInfo: { name: "big", version: "0" } });
    await attack(`oversize message (${MAX_MESSAGE_BYTES / 1024} KiB limit, 100 KiB sent)`, async () => {
      const closed = closeCode(socket);
      socket.send(JSON.stringify({ id: 2, method: "thread/list", params: { cursor: "x".repeat(100 * 1024) } }));
      expect(await closed).toBe(RelayCloseCode.tooBig);
      return "closed 1009 (message too big)";
    });
  });

  it("a message flood: the connection closes with 1008 once over the burst", async () => {
    const outcome = await tryUpgrade(relay.url, { token: relay.token, origin: ORIGIN });
    if (!("socket" in outcome)) throw new Error(`upgrade refused: ${outcome.status}`);
    const { socket } = outcome;
    await call(socket, 1, "initialize", { clientInfo: { name: "flood", version: "0" } });
    await attack(
      `message flood (1000 requests at once; limit ${RATE.perSecond}/s, burst ${RATE.burst})`,
      async () => {
        const closed = closeCode(socket);
        for (let id = 2; id < 1002; id++) socket.send(JSON.stringify({ id, method: "thread/loaded/list", params: {} }));
        expect(await closed).toBe(RelayCloseCode.rateLimited);
        return "closed 1008 (rate limit exceeded)";
      },
      RATE.burst,
    );
  });

  it("another connection's threads in lists: left out of the answer", async () => {
    const outcome = await tryUpgrade(relay.url, { token: relay.token, origin: ORIGIN });
    if (!("socket" in outcome)) throw new Error(`upgrade refused: ${outcome.status}`);
    const { socket } = outcome;
    await call(socket, 1, "initialize", { clientInfo: { name: "lister", version: "0" } });
    await attack(
      "another connection's threads in lists (thread/loaded/list, thread/list)",
      async () => {
        const loaded = (await call(socket, 2, "thread/loaded/list", {})).result as { data: string[] };
        const listed = (await call(socket, 3, "thread/list", {})).result as { data: { id: string }[] };
        expect(loaded.data).toEqual([]);
        expect(listed.data.map((thread) => thread.id)).not.toContain(ownerThreadId);
        return "filtered out of both answers";
      },
      2,
    );
    socket.close();
    await closeCode(socket);
  });

  it("too many connections: the one over maxConnections closes with 1013", async () => {
    await attack(`too many connections (maxConnections ${MAX_CONNECTIONS})`, async () => {
      const sockets = [];
      const codes: number[] = [];
      for (let i = 0; i < MAX_CONNECTIONS + 1; i++) {
        const outcome = await tryUpgrade(relay.url, { token: relay.token, origin: ORIGIN });
        if (!("socket" in outcome)) throw new Error(`upgrade refused: ${outcome.status}`);
        sockets.push(outcome.socket);
        outcome.socket.once("close", (code) => codes.push(code));
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(codes).toContain(RelayCloseCode.tooManyConnections);
      for (const socket of sockets) socket.close();
      await Promise.all(sockets.map(closeCode));
      return "closed 1013 (try again later)";
    });
  });

  it("another connection's thread id spelt another way: refused, nothing forwarded (issue 15)", async () => {
    const outcome = await tryUpgrade(relay.url, { token: relay.token, origin: ORIGIN });
    if (!("socket" in outcome)) throw new Error(`upgrade refused: ${outcome.status}`);
    const { socket } = outcome;
    await call(socket, 1, "initialize", { clientInfo: { name: "speller", version: "0" } });
    const spellings = [ownerThreadId.toUpperCase(), ownerThreadId.replaceAll("-", ""), `{${ownerThreadId}}`, `urn:uuid:${ownerThreadId}`];
    await attack("another connection's thread id spelt another way (upper case, no hyphens, {…}, urn:uuid:; read/resume/fork)", async () => {
      let id = 2;
      for (const spelling of spellings) {
        for (const method of ["thread/read", "thread/resume", "thread/fork"]) {
          expect((await call(socket, id++, method, { threadId: spelling })).error).toMatchObject({ code: RelayErrorCode.threadNotOwned });
        }
      }
      return `JSON-RPC error ${RelayErrorCode.threadNotOwned} ×${spellings.length * 3}`;
    });
    await attack("another connection's rollout path (thread/resume, thread/fork with `path`)", async () => {
      const path = (await owner.request("thread/read", { threadId: ownerThreadId, includeTurns: false })).thread.path;
      up.splice(up.length - 1); // the owner's own thread/read above is not the attack's
      for (const [id, method] of [
        [100, "thread/resume"],
        [101, "thread/fork"],
      ] as const) {
        expect((await call(socket, id, method, { threadId: "0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", path })).error).toMatchObject({
          code: RelayErrorCode.threadNotOwned,
        });
      }
      return `JSON-RPC error ${RelayErrorCode.threadNotOwned} ×2 (path refused)`;
    });
    await attack(
      "another connection's thread in search results (thread/search)",
      async () => {
        const found = (await call(socket, 200, "thread/search", { searchTerm: "hello" })) as {
          result?: { data: { thread: { id: string } }[] };
          error?: unknown;
        };
        console.log(`thread/search through the relay: ${JSON.stringify(found.error ?? { ids: found.result?.data.map((hit) => hit.thread.id) })}`);
        expect(found.result?.data.map((hit) => hit.thread.id) ?? []).not.toContain(ownerThreadId);
        return "filtered out of the answer";
      },
      1,
    );
    socket.close();
    await closeCode(socket);
  });

  it("another connection's process: its output not delivered; naming its processId names the caller's own, so A's runs on (issue 15)", async () => {
    const outcome = await tryUpgrade(relay.url, { token: relay.token, origin: ORIGIN });
    if (!("socket" in outcome)) throw new Error(`upgrade refused: ${outcome.status}`);
    const { socket } = outcome;
    await call(socket, 1, "initialize", { clientInfo: { name: "eavesdropper", version: "0" } });
    socket.send(JSON.stringify({ method: "initialized" }));
    const seen: string[] = [];
    socket.on("message", (data) => seen.push(String((JSON.parse(String(data)) as { method?: string }).method)));
    const deltas: { processId: string; deltaBase64: string }[] = [];
    let firstDelta!: () => void;
    const started = new Promise<void>((resolve) => (firstDelta = resolve));
    const subscription = owner.notifications("command/exec/outputDelta").subscribe((params) => {
      deltas.push(params as never);
      firstDelta();
    });
    const exec = owner.request("command/exec", {
      command: ["sh", "-c", "echo secret-output; sleep 1; echo still-running"],
      processId: "p1",
      streamStdoutStderr: true,
    } as never);
    await started;
    await attack(
      "another connection's process (its command/exec/outputDelta, processId p1; command/exec/terminate p1 while it runs)",
      async () => {
        const answer = (await call(socket, 2, "command/exec/terminate", { processId: "p1" })) as { error?: { code: number; message: string } };
        // The relay sent it in the caller's own namespace: codex knows no such process there.
        expect(answer.error).toMatchObject({ code: -32600, message: 'no active command/exec for process id "p1"' });
        expect(seen).not.toContain("command/exec/outputDelta");
        return `not delivered; terminate p1 names the caller's own p1 (ids pages choose are scoped per connection): codex ${answer.error?.code} "${answer.error?.message}"`;
      },
      1,
    );
    const result = await exec;
    subscription.unsubscribe();
    const output = deltas.map((delta) => Buffer.from(delta.deltaBase64, "base64").toString()).join("");
    console.log(`command/exec p1 through the relay: ${JSON.stringify(result)}; the owner's output: ${JSON.stringify(output)}`);
    expect(result).toMatchObject({ exitCode: 0 });
    expect(output).toBe("secret-output\nstill-running\n");
    expect(deltas.every((delta) => delta.processId === "p1")).toBe(true);
    socket.close();
    await closeCode(socket);
  });

  it("--open's URL holds a one-time code, not the token (issue 15)", () =>
    attack("the --open URL (in the opener's argv and browser history)", async () => {
      const code = relay.createLoginCode();
      expect(code).not.toContain(relay.token);
      const exchange = () =>
        fetch(`http://127.0.0.1:${relay.port}/.well-known/codex-rpc-relay/code`, {
          method: "POST",
          headers: { origin: `http://127.0.0.1:${relay.port}`, "content-type": "application/json" },
          body: JSON.stringify({ code }),
        });
      expect((await exchange()).status).toBe(200);
      expect((await exchange()).status).toBe(403);
      return "a one-time code (60 s), exchanged once; used again: 403";
    }));

  it("the owner's connection still works after all that", async () => {
    const read = await owner.request("thread/read", { threadId: ownerThreadId, includeTurns: false });
    expect(read.thread.id).toBe(ownerThreadId);
  });
});
