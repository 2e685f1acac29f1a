// The client (@codex-rpc/core over @codex-rpc/stdio) against the real, pinned `codex app-server`,
// offline: a MockResponsesProvider on loopback stands in for the model.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { firstValueFrom, toArray } from "rxjs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CodexClient, ConnectionClosedError, type ApprovalPolicy, type CodexClientOptions, type DynamicTool } from "@codex-rpc/core";
import { spawnCodexAppServer, type NodeStdioTransport } from "@codex-rpc/stdio";
import { MockResponsesProvider, createCodexHome, reply, type CodexHome, type ScriptedReply } from "@codex-rpc/testing";
import { pinnedCodexBinary } from "./support/pinned-codex.js";

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(() => process.on("unhandledRejection", onUnhandled));
afterAll(() => {
  process.off("unhandledRejection", onUnhandled);
  expect(unhandled).toEqual([]);
});

interface Session {
  readonly client: CodexClient;
  readonly transport: NodeStdioTransport;
  readonly provider: MockResponsesProvider;
  readonly workspace: string;
  dispose(): Promise<void>;
}

const open: Session[] = [];
afterEach(async () => {
  for (const session of open.splice(0)) await session.dispose();
});

async function startSession(script: readonly ScriptedReply[], options: CodexClientOptions = {}): Promise<Session> {
  const provider = await MockResponsesProvider.start({ script });
  let home: CodexHome | undefined;
  let client: CodexClient | undefined;
  try {
    home = await createCodexHome({ provider });
    const workspace = await mkdtemp(join(tmpdir(), "codex-rpc-workspace-"));
    const transport = await spawnCodexAppServer({ codexPath: pinnedCodexBinary(), env: { PATH: process.env.PATH ?? "", ...home.env }, cwd: workspace });
    client = await CodexClient.connect(transport, { clientInfo: { name: "codex-rpc-tests", version: "0.0.0" }, ...options });
    const codexHome = home;
    const session: Session = {
      client,
      transport,
      provider,
      workspace,
      dispose: async () => {
        await session.client.close();
        await provider.close();
        await codexHome.cleanup();
        await rm(workspace, { recursive: true, force: true });
      },
    };
    open.push(session);
    return session;
  } catch (error) {
    await client?.close();
    await provider.close();
    await home?.cleanup();
    throw error;
  }
}

describe("the client against the real codex app-server (offline)", () => {
  it("handshakes, starts a thread and streams a turn whose text$ equals the completed agent message", async () => {
    const { client, workspace } = await startSession([reply.text("The quick brown fox jumps over the lazy dog.", { chunks: 6 })]);
    expect(client.state).toBe("open");
    expect(client.initializeResponse.userAgent).toContain("codex-rpc-tests");
    const thread = await client.startThread({ cwd: workspace, approvalPolicy: "never" });
    expect(thread.id).toMatch(/[0-9a-f-]{36}/);

    const turn = thread.run("Say the pangram.");
    const deltas = firstValueFrom(turn.text$.pipe(toArray()));
    const done = await turn.completed;
    expect(done.status).toBe("completed");
    expect((await deltas).length).toBeGreaterThan(1);
    expect((await deltas).join("")).toBe("The quick brown fox jumps over the lazy dog.");
    expect(done.finalText).toBe("The quick brown fox jumps over the lazy dog.");
    expect(done.items.map((item) => item.type)).toEqual(["userMessage", "agentMessage"]);
  });

  async function approvalTurn(approvals: ApprovalPolicy) {
    const call = reply.execCommand({
      cmd: "touch marker.txt && echo command-ran",
      sandbox_permissions: "require_escalated",
      justification: "Make the marker?",
    });
    const session = await startSession([call, reply.text("Done.")], { approvals });
    const thread = await session.client.startThread({ cwd: session.workspace, approvalPolicy: "untrusted" });
    const done = await thread.run("Make the marker file.").completed;
    const command = done.items.find((item) => item.type === "commandExecution");
    return { session, done, command, call, marker: join(session.workspace, "marker.txt") };
  }

  it("runs a command the approval policy accepts: its output is in the item and reaches the model", async () => {
    const asked: string[] = [];
    const { session, done, command, call, marker } = await approvalTurn((request) => {
      asked.push(request.kind);
      return "accept";
    });
    expect(asked).toEqual(["commandExecution"]);
    expect(existsSync(marker)).toBe(true);
    expect(command).toMatchObject({ id: call.callId, status: "completed", exitCode: 0, aggregatedOutput: "command-ran\n" });
    expect(done.status).toBe("completed");
    expect(session.provider.requests[1]?.functionCallOutput(call.callId)).toEqual(expect.stringContaining("command-ran"));
  });

  it("does not run a command the default policy declines: the item says declined, the marker file is absent", async () => {
    const { done, command, call, marker } = await approvalTurn("decline");
    expect(existsSync(marker)).toBe(false);
    expect(command).toMatchObject({ id: call.callId, status: "declined", exitCode: null });
    expect(done.status).toBe("completed");
  });

  it("answers a dynamic tool call with a registered tool; the model receives its output", async () => {
    const calls: unknown[] = [];
    const lookup: DynamicTool = {
      name: "lookup_capital",
      description: "Returns the capital city of a country.",
      inputSchema: { type: "object", properties: { country: { type: "string" } }, required: ["country"] },
      handler: (args) => {
        calls.push(args);
        return (args as { country: string }).country === "France" ? "Paris" : "unknown";
      },
    };
    const call = reply.toolCall("lookup_capital", { country: "France" });
    const { client, provider, workspace } = await startSession([call, reply.text("The capital is Paris.")], {
      experimentalApi: true,
      tools: [lookup],
    });
    const thread = await client.startThread({ cwd: workspace, approvalPolicy: "never" });
    const done = await thread.run("What is the capital of France?").completed;
    expect(calls).toEqual([{ country: "France" }]);
    expect(provider.requests[0]?.toolNames()).toContain("lookup_capital");
    expect(JSON.stringify(provider.requests[1]?.functionCallOutput(call.callId))).toContain("Paris");
    expect(done.finalText).toBe("The capital is Paris.");
  });

  it("interrupts a turn mid-way: it ends with status interrupted", async () => {
    const { client, workspace, provider } = await startSession([reply.hang()]);
    const thread = await client.startThread({ cwd: workspace, approvalPolicy: "never" });
    const turn = thread.run("Think forever.");
    await turn.started;
    await provider.waitForRequests(1);
    await turn.interrupt();
    const done = await turn.completed;
    expect(done.status).toBe("interrupted");
  });

  it("interrupts a turn when its signal aborts, and when a for-await loop breaks", async () => {
    const { client, workspace, provider } = await startSession([reply.hang(), reply.text("one two three four", { chunks: 4 }), reply.hang()]);
    const thread = await client.startThread({ cwd: workspace, approvalPolicy: "never" });
    const controller = new AbortController();
    const aborted = thread.run("Wait.", { signal: controller.signal });
    await provider.waitForRequests(1);
    controller.abort();
    expect((await aborted.completed).status).toBe("interrupted");

    // The second turn streams text and ends; a loop over the third breaks as soon as it starts.
    await thread.run("Count.").completed;
    const looped = thread.run("Wait again.");
    const seen: string[] = [];
    for await (const event of looped) {
      seen.push(event.method);
      if (event.method === "turn/started") break;
    }
    expect(seen).toContain("turn/started");
    expect((await looped.completed).status).toBe("interrupted");
  });

  it("cancellation is explicit: firstValueFrom(text$) leaves the turn running to completed; break interrupts while text$ is subscribed", async () => {
    const { client, workspace } = await startSession([reply.text("first second third fourth", { chunks: 4 }), reply.hang()]);
    const thread = await client.startThread({ cwd: workspace, approvalPolicy: "never" });
    const first = thread.run("Count.");
    const firstDelta = await firstValueFrom(first.text$);
    expect(firstDelta.length).toBeGreaterThan(0);
    const done = await first.completed;
    expect(done.status).toBe("completed");
    expect(done.finalText).toBe("first second third fourth");

    const looped = thread.run("Wait.");
    const text: string[] = [];
    looped.text$.subscribe((delta) => text.push(delta));
    const seen: string[] = [];
    for await (const event of looped) {
      seen.push(event.method);
      break; // the first event of the turn (turn/started)
    }
    expect(seen).toHaveLength(1);
    expect((await looped.completed).status).toBe("interrupted");
  });

  it("runs concurrent turns on two threads over one connection without crossing events", async () => {
    const { client, workspace } = await startSession([reply.text("alpha alpha alpha", { chunks: 3 }), reply.text("beta beta beta", { chunks: 3 })]);
    const [first, second] = await Promise.all([
      client.startThread({ cwd: workspace, approvalPolicy: "never" }),
      client.startThread({ cwd: workspace, approvalPolicy: "never" }),
    ]);
    const turns = [first.run("one"), second.run("two")];
    const events = turns.map((turn) => firstValueFrom(turn.events$.pipe(toArray())));
    const done = await Promise.all(turns.map((turn) => turn.completed));
    // The provider answers in arrival order, so which thread got which text is not fixed.
    expect(done.map((d) => d.finalText).sort()).toEqual(["alpha alpha alpha", "beta beta beta"]);
    for (const [index, thread] of [first, second].entries()) {
      const seen = await events[index]!;
      expect(seen.length).toBeGreaterThan(3);
      for (const event of seen) expect((event.params as { threadId: string }).threadId).toBe(thread.id);
      const text = seen.flatMap((e) => (e.method === "item/agentMessage/delta" ? [e.params.delta] : [])).join("");
      expect(text).toBe(done[index]!.finalText);
    }
  });

  it("rejects the pending request and the turn with the typed close error when the server is SIGKILLed mid-turn", async () => {
    const { client, transport, workspace, provider } = await startSession([reply.hang()]);
    const thread = await client.startThread({ cwd: workspace, approvalPolicy: "never" });
    const turn = thread.run("Hang.");
    await turn.started;
    await provider.waitForRequests(1);
    const pid = transport.pid as number;
    const pending = client.request("thread/list", {}).catch((error: unknown) => error);
    const killedAt = performance.now();
    process.kill(pid, "SIGKILL");
    const [requestError, turnError] = await Promise.all([pending, turn.completed.catch((error: unknown) => error)]);
    const elapsedMs = performance.now() - killedAt;
    console.log(`real-server: request and turn rejected ${elapsedMs.toFixed(1)} ms after SIGKILL`);
    for (const error of [requestError, turnError]) {
      expect(error).toBeInstanceOf(ConnectionClosedError);
      expect((error as ConnectionClosedError).close).toMatchObject({ reason: "exit", signal: "SIGKILL" });
      expect((error as ConnectionClosedError).close.stderrTail).toBeDefined();
    }
    // A generous bound: the figure above is what the issue asks for (< 100 ms); machines are shared.
    expect(elapsedMs).toBeLessThan(2000);
    expect(() => process.kill(pid, 0)).toThrow();
  });
});
