// A module loaded on demand (import()) that never finishes loading — a chunk fetch that stalls in
// a browser — must not hold the call that needs it past its timeout, its AbortSignal or the
// client's close; server requests are still answered, after a bounded wait. (Loads that fail are
// in on-demand-modules.test.ts.) The runner of `client.exec` is held, then let through at the
// end, to show that a load completing after its call gave up does nothing.
//
// vitest 4 hands the real module to a second import of a path while the first one's mock factory
// is pending: each stalled module is imported once in this file (more in stalled-modules-more.test.ts).
import { filter, firstValueFrom } from "rxjs";
import { afterEach, expect, it, vi } from "vitest";
import { answerApproval, CodexClient, ConnectionClosedError, RequestTimeoutError } from "@codex-rpc/core";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { connect } from "../support/connect-to-fake.js";

const runner = vi.hoisted(() => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return { release, released };
});

vi.mock("../../dist/client/server-request-answers.js", () => stalled());
vi.mock("../../dist/client/approval-answer.js", () => stalled());
vi.mock("../../dist/client/reconnector.js", () => stalled());
vi.mock("../../dist/client/account-login.js", () => stalled());
vi.mock("../../dist/client/fs-files.js", () => stalled());
vi.mock("../../dist/client/fs-watch.js", () => stalled());
vi.mock("../../dist/session/rollback.js", () => stalled());
vi.mock("../../dist/session/compaction.js", () => stalled());
vi.mock("../../dist/session/turn-read-back.js", () => stalled());
vi.mock("../../dist/session/structured-output-parse.js", () => stalled());
vi.mock("../../dist/util/base64.js", () => stalled());
vi.mock("../../dist/rpc/overload-backoff.js", () => stalled());
vi.mock("../../dist/session/page-walk.js", () => stalled());
vi.mock("../../dist/session/command-run.js", async (importOriginal) => {
  await runner.released;
  return importOriginal();
});

function stalled(): Promise<never> {
  return new Promise<never>(() => {});
}

const sent = (server: FakeAppServer, method: string) => server.received.filter((message) => "method" in message && message.method === method);

afterEach(() => {
  vi.useRealTimers();
});

it("a call's timeout: RequestTimeoutError with its method and timeoutMs, and the request never goes out", async () => {
  const { server, client } = await connect({}, { requestTimeoutMs: 30 });
  const read = client.fs.readFile("/etc/hostname").catch((error: unknown) => error);
  expect(await read).toBeInstanceOf(RequestTimeoutError);
  expect(await read).toMatchObject({ code: "REQUEST_TIMEOUT", method: "fs/readFile", timeoutMs: 30, requestId: undefined });
  await expect(client.account.loginWithApiKey("sk-secret")).rejects.toMatchObject({
    code: "REQUEST_TIMEOUT",
    method: "account/login/start",
    requestId: undefined,
  });
  expect(sent(server, "fs/readFile")).toEqual([]);
  const watched = await new Promise((resolve) => client.fs.watch("/w").subscribe({ error: resolve }));
  expect(watched).toMatchObject({ code: "REQUEST_TIMEOUT", method: "fs/watch", timeoutMs: 30, requestId: undefined });
  expect(sent(server, "fs/watch")).toEqual([]);
  await client.close();
});

it("a call's signal: RequestAbortedError, as without the load", async () => {
  const { client } = await connect();
  const controller = new AbortController();
  const listing = client.threads({}, { signal: controller.signal })[Symbol.asyncIterator]().next();
  controller.abort(new Error("the user left"));
  await expect(listing).rejects.toMatchObject({ code: "REQUEST_ABORTED", method: "thread/list" });
  await client.close();
});

it("the client's close: ConnectionClosedError for a call waiting on a load, and for a turn whose start waits on one", async () => {
  const { server, client } = await connect();
  const thread = await client.startThread();
  const rollback = thread.rollback().catch((error: unknown) => error);
  const compaction = thread.compact().completed.catch((error: unknown) => error);
  await new Promise((resolve) => setTimeout(resolve, 20));
  await client.close();
  for (const outcome of [rollback, compaction]) expect(await outcome).toBeInstanceOf(ConnectionClosedError);
  expect(sent(server, "thread/compact/start")).toEqual([]);
});

it("a turn with an outputSchema whose parser stalls settles `completed` after a request's timeout", async () => {
  const { client } = await connect({ turns: [{ deltas: ["{}"] }] }, { requestTimeoutMs: 50 });
  const thread = await client.startThread();
  const turn = thread.run("hi", { outputSchema: { type: "object" } });
  await expect(turn.completed).rejects.toMatchObject({ code: "REQUEST_TIMEOUT", timeoutMs: 50 });
  await client.close();
});

it("the watchdog reports a read-back that stalls (after a request's timeout) and tries again; the turn ends with the client", async () => {
  const { client } = await connect({ turns: [{ deltas: ["lost"], dropTurnCompleted: true }] }, { requestTimeoutMs: 20 });
  const thread = await client.startThread();
  const turn = thread.run("hi", { watchdogGraceMs: 10 });
  const reported = firstValueFrom(client.diagnostics$.pipe(filter((diagnostic) => diagnostic.kind === "turn-recovery")));
  expect((await reported).message).toMatch(/could not load the read-back.*thread\/read got no reply within 20 ms/);
  const ended = turn.completed.catch((error: unknown) => error);
  await client.close();
  expect(await ended).toMatchObject({ code: "CONNECTION_CLOSED" });
});

it("a request answered -32001 whose retries stall fails at its deadline, not after", async () => {
  const { server, client } = await connect({ overload: { "thread/start": 1 } }, { requestTimeoutMs: 40 });
  await expect(client.startThread()).rejects.toMatchObject({ code: "REQUEST_TIMEOUT", method: "thread/start", timeoutMs: 40 });
  expect(sent(server, "thread/start")).toHaveLength(1);
  await client.close();
});

it("connect with `reconnect`, its loop stalling: the signal aborts it, nothing is opened", async () => {
  const server = new FakeAppServer();
  const opened = vi.fn(async () => server.transport);
  const controller = new AbortController();
  const connecting = CodexClient.connect(opened, { reconnect: true, signal: controller.signal });
  controller.abort();
  await expect(connecting).rejects.toMatchObject({ code: "REQUEST_ABORTED", method: "initialize" });
  expect(opened).not.toHaveBeenCalled();
});

it("connect with `validate: true`, the validators stalling: fails as `initialize` would, and closes the transport", async () => {
  const server = new FakeAppServer();
  const { protocol } = await import("@codex-rpc/protocol");
  const stalling = { ...protocol, loadValidators: () => stalled() };
  await expect(CodexClient.connect(server.transport, { protocol: stalling, validate: true, requestTimeoutMs: 20 })).rejects.toMatchObject({
    code: "REQUEST_TIMEOUT",
    method: "initialize",
  });
  await server.transport.closed;
});

it("a server request whose default answers stall is still answered (declined, or -32601) after ANSWERS_LOAD_BOUND_MS", async () => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  const { server, client } = await connect();
  const params = { threadId: "t", turnId: "u", itemId: "i", startedAtMs: 0, command: "ls", cwd: "/", reason: null };
  let answered = false;
  const approval = server.request("item/commandExecution/requestApproval", params).finally(() => (answered = true));
  const unknown = server.request("someFuture/request", {});
  await vi.advanceTimersByTimeAsync(9_000);
  expect(answered).toBe(false);
  await vi.advanceTimersByTimeAsync(1_000);
  expect(await approval).toEqual({ result: { decision: "decline" } });
  expect(await unknown).toMatchObject({ error: { code: -32601 } });
  // answerApproval (what a relay calls) throws after the same bound, so its caller can answer.
  const relayed = answerApproval("decline", "item/commandExecution/requestApproval", params, new AbortController().signal).catch((error: unknown) => error);
  await vi.advanceTimersByTimeAsync(10_000);
  expect(await relayed).toMatchObject({ code: "REQUEST_TIMEOUT", timeoutMs: 10_000 });
  expect(vi.getTimerCount()).toBe(0);
  await client.close();
});

it("a command whose base64 encoder stalls: write rejects when the client closes", async () => {
  const { client } = await connect();
  const command = client.exec(["cat"], { streamStdin: true });
  const write = command.write("x").catch((error: unknown) => error);
  await new Promise((resolve) => setTimeout(resolve, 10));
  await client.close();
  expect(await write).toBeInstanceOf(ConnectionClosedError);
});

it("`client.exec` with a held runner: result and exit reject on the call's signal; loaded late, command/exec never goes out", async () => {
  const { server, client } = await connect();
  const controller = new AbortController();
  const aborted = client.exec(["true"], { signal: controller.signal });
  const output = firstValueFrom(aborted.output$, { defaultValue: "completed" });
  controller.abort();
  await expect(aborted.result).rejects.toMatchObject({ code: "REQUEST_ABORTED", method: "command/exec" });
  await expect(aborted.exit).rejects.toMatchObject({ code: "REQUEST_ABORTED" });
  expect(await output).toBe("completed");
  runner.release();
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(sent(server, "command/exec")).toEqual([]);
  await client.close();
});
