// Review 6 (F2, F3, F4): what an app-server (another version, or a broken one) may send that the
// relay cannot relay as it is, and a page request the relay cannot send upstream. Nothing may be
// thrown out of the relay's upstream subscription (rxjs reports that as an uncaught exception: the
// relay's process dies), and nobody is left waiting for an answer.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import type { JsonRpcMessage } from "@codex-rpc/core";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { type FakePeer, fakePeer, tick } from "./support/fake-peer.js";
import { RelayErrorCode, RelayMultiplexer, type RelayPeer } from "../src/index.js";

const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => void uncaught.push(error);
beforeEach(() => {
  uncaught.length = 0;
  process.prependListener("uncaughtException", onUncaught);
  process.prependListener("unhandledRejection", onUncaught);
});
afterEach(() => {
  process.removeListener("uncaughtException", onUncaught);
  process.removeListener("unhandledRejection", onUncaught);
});

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function setup(server = new FakeAppServer()) {
  const log: string[] = [];
  const mux = await RelayMultiplexer.start(server.transport, { log: (line) => log.push(line) });
  const open = (peer: FakePeer | RelayPeer = fakePeer()) => {
    const connection = mux.attach(peer);
    connection.receive({ id: 0, method: "initialize", params: {} });
    return { connection, peer };
  };
  return { server, mux, log, open };
}

const got = (peer: FakePeer, method: string) => peer.sent.some((message) => message.method === method);

describe("an upstream message whose method is not a string (F2)", () => {
  for (const [name, method] of [
    ["5", 5],
    ["null", null],
    ["{}", {}],
  ] as const) {
    it(`a notification with method ${name} is dropped with a log line; the relay goes on`, async () => {
      const { server, log, open } = await setup();
      const page = open(fakePeer()) as { peer: FakePeer };
      server.notify(method as never, { threadId: "t" });
      await wait(30);
      server.notify("configWarning", { summary: "after", details: null });
      await tick();
      expect(uncaught).toEqual([]);
      expect(page.peer.sent.filter((message) => message.method !== "configWarning" && message.id !== 0)).toEqual([]);
      expect(got(page.peer, "configWarning")).toBe(true);
      expect(log.some((line) => line.includes("method is not a string"))).toBe(true);
    });

    it(`a server request with method ${name} gets -32600 upstream; the relay goes on`, async () => {
      const { server, open } = await setup();
      const page = open(fakePeer()) as { peer: FakePeer };
      const answer = server.request(method as never, { threadId: "t" });
      const reply = await Promise.race([answer, wait(500).then(() => "no answer")]);
      expect(reply).toMatchObject({ error: { code: RelayErrorCode.invalidRequest } });
      server.notify("configWarning", { summary: "after", details: null });
      await tick();
      expect(uncaught).toEqual([]);
      expect(got(page.peer, "configWarning")).toBe(true);
    });
  }

  it("codex-rpc-relay in front of an app-server sending {method: 5} keeps running", async () => {
    const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    await new Promise((resolve) => wss.once("listening", resolve));
    wss.on("connection", (socket) => {
      socket.on("message", (data) => {
        const message = JSON.parse(String(data)) as { id?: number; method?: string };
        if (message.method === "initialize") socket.send(JSON.stringify({ id: message.id, result: { userAgent: "stand-in/0.169.0 (x)" } }));
        if (message.method === "initialized") setTimeout(() => socket.send(JSON.stringify({ method: 5, params: {} })), 100);
      });
    });
    const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
    const port = (wss.address() as { port: number }).port;
    const child = spawn(process.execPath, [cli, "--port", "0", "--upstream", `ws://127.0.0.1:${port}`], { stdio: ["ignore", "pipe", "pipe"] });
    try {
      const outcome = await Promise.race([
        new Promise<string>((resolve) => child.once("exit", (code, signal) => resolve(`exited ${code ?? signal}`))),
        wait(2000).then(() => "running"),
      ]);
      expect(outcome).toBe("running");
    } finally {
      child.kill("SIGTERM");
      wss.close();
    }
  }, 15_000);
});

const DEPTH = 100_000;
/** What JSON.parse accepts and JSON.stringify cannot write back (RangeError: call stack). */
const deepValue = () => JSON.parse(`${"[".repeat(DEPTH)}1${"]".repeat(DEPTH)}`) as unknown;

describe("an upstream message too deep to serialize (F3)", () => {
  /** A peer that serializes as start-relay.ts does (`ws.send(JSON.stringify(message))`). */
  const serializingPeer = () => {
    const frames: string[] = [];
    const peer: RelayPeer = { send: (message: JsonRpcMessage) => void frames.push(JSON.stringify(message)), close: () => {} };
    return { peer, frames };
  };

  it("a notification is dropped with a log line naming its method, never its content; the relay goes on", async () => {
    const { server, log, open } = await setup();
    const { peer, frames } = serializingPeer();
    open(peer);
    server.notify("configWarning", { summary: "secret-looking-deep", details: deepValue() });
    await wait(30);
    server.notify("configWarning", { summary: "after", details: null });
    await tick();
    expect(uncaught).toEqual([]);
    expect(frames.some((frame) => frame.includes('"after"'))).toBe(true);
    expect(frames.some((frame) => frame.includes("secret-looking-deep"))).toBe(false);
    const line = log.find((entry) => entry.includes("could not be serialized"));
    expect(line).toContain("configWarning");
    expect(log.join("\n")).not.toContain("secret-looking-deep");
  });

  it("a connection-level notification too deep to serialize is not kept for pages that connect later", async () => {
    const { server, log, open } = await setup();
    server.notify("configWarning", { summary: "deep", details: deepValue() });
    server.notify("configWarning", { summary: "plain", details: null });
    await tick();
    const { peer, frames } = serializingPeer();
    open(peer);
    expect(frames.some((frame) => frame.includes('"plain"'))).toBe(true);
    expect(frames.some((frame) => frame.includes('"deep"'))).toBe(false);
    expect(log.filter((entry) => entry.includes("could not be serialized"))).toEqual([]);
    expect(uncaught).toEqual([]);
  });

  it("an answer too deep to serialize reaches the page as an error (-32603), not as nothing", async () => {
    const { server, open } = await setup();
    server.respond("config/read", () => ({ result: { config: deepValue() } }));
    const { peer, frames } = serializingPeer();
    const page = open(peer);
    page.connection.receive({ id: 1, method: "config/read", params: {} });
    await wait(30);
    expect(uncaught).toEqual([]);
    const answer = frames.map((frame) => JSON.parse(frame) as { id?: unknown; error?: { code: number } }).find((message) => message.id === 1);
    expect(answer?.error?.code).toBe(RelayErrorCode.internalError);
  });
});

describe("a page request the relay cannot send upstream (F4)", () => {
  it("is answered at once with -32603, and nothing of it is left pending", async () => {
    const { server, open } = await setup(new FakeAppServer({ framing: "ndjson" }));
    const page = open(fakePeer()) as ReturnType<typeof open> & { peer: FakePeer };
    page.connection.receive({ id: 1, method: "config/read", params: { deep: deepValue() } });
    page.connection.receive({ id: 2, method: "thread/start", params: { deep: deepValue() } });
    await tick();
    const answers = page.peer.sent.filter((message) => message.id === 1 || message.id === 2);
    expect(answers.map((answer) => answer.error?.code)).toEqual([RelayErrorCode.internalError, RelayErrorCode.internalError]);
    expect(JSON.stringify(answers)).not.toContain("[[[");
    // The relay goes on: a later request is forwarded and answered.
    page.connection.receive({ id: 3, method: "thread/start", params: {} });
    await tick();
    expect(page.peer.sent.find((message) => message.id === 3)?.result?.thread?.id).toBe("thread-1");
    expect(server.received.filter((message) => "method" in message && message.method === "config/read")).toEqual([]);
    expect(uncaught).toEqual([]);
  });

  it("a page's answer to a server request the relay cannot send upstream: codex gets the decline default instead", async () => {
    const { server, open } = await setup(new FakeAppServer({ framing: "ndjson" }));
    const page = open(fakePeer()) as ReturnType<typeof open> & { peer: FakePeer };
    page.connection.receive({ id: 1, method: "thread/start", params: {} });
    await tick();
    const asked = server.request("item/commandExecution/requestApproval", { threadId: "thread-1", turnId: "t", itemId: "i" });
    await tick();
    const request = page.peer.sent.find((message) => message.method === "item/commandExecution/requestApproval");
    page.connection.receive({ id: request?.id, result: { decision: "accept", deep: deepValue() } });
    const answer = await Promise.race([asked, wait(500).then(() => "no answer")]);
    expect(answer).toEqual({ result: { decision: "decline" } });
    expect(uncaught).toEqual([]);
  });
});
