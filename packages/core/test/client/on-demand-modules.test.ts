// What loads on demand (import()) is kept off the hot path: with every such module failing to load,
// a client still connects, starts a thread and streams a turn's text, and the features that need
// one fail only when used.
import { filter, firstValueFrom, toArray } from "rxjs";
import { expect, it, vi } from "vitest";
import { ServerOverloadedError } from "@codex-rpc/core";
import { connect } from "../support/connect-to-fake.js";

vi.mock("../../dist/client/server-request-answers.js", () => failing());
vi.mock("../../dist/client/approval-answer.js", () => failing());
vi.mock("../../dist/client/user-input-answer.js", () => failing());
vi.mock("../../dist/client/tool-runtime.js", () => failing());
vi.mock("../../dist/client/reconnect-policy.js", () => failing());
vi.mock("../../dist/client/reconnector.js", () => failing());
vi.mock("../../dist/client/account-login.js", () => failing());
vi.mock("../../dist/client/fs-files.js", () => failing());
vi.mock("../../dist/client/fs-watch.js", () => failing());
vi.mock("../../dist/session/rollback.js", () => failing());
vi.mock("../../dist/session/compaction.js", () => failing());
vi.mock("../../dist/session/turn-read-back.js", () => failing());
vi.mock("../../dist/session/turn-interrupt.js", () => failing());
vi.mock("../../dist/session/structured-output-parse.js", () => failing());
vi.mock("../../dist/session/command-run.js", () => failing());
vi.mock("../../dist/util/base64.js", () => failing());
vi.mock("../../dist/rpc/overload-backoff.js", () => failing());
vi.mock("../../dist/session/page-walk.js", () => failing());

function failing(): never {
  throw new Error("not loaded on the hot path");
}

it("connects, starts a thread and streams a turn's text without loading any of them", async () => {
  const { client } = await connect({ turns: [{ deltas: ["One", " two"] }] });
  const thread = await client.startThread();
  const turn = thread.run("hi");
  const text = firstValueFrom(turn.text$.pipe(toArray()));
  expect(await turn.completed).toMatchObject({ status: "completed", finalText: "One two" });
  expect((await text).join("")).toBe("One two");
  // The features that need a module fail when used, and only then.
  await expect(client.fs.readFile("/etc/hostname")).rejects.toThrow(/error when mocking a module/);
  await expect(thread.rollback()).rejects.toThrow(/error when mocking a module/);
  await expect(client.threads()[Symbol.asyncIterator]().next()).rejects.toThrow(/error when mocking a module/);
  await expect(new Promise((resolve, reject) => client.fs.watch("/w").subscribe({ next: resolve, error: reject }))).rejects.toThrow(
    /error when mocking a module/,
  );
  const running = thread.run("again");
  await running.started;
  await expect(running.interrupt()).rejects.toThrow(/error when mocking a module/);
  await client.close();
});

it("a turn with an outputSchema rejects `completed` with the load's error when its parser cannot load (never hangs)", async () => {
  const { client } = await connect({ turns: [{ deltas: ["{}"] }] });
  const thread = await client.startThread();
  const turn = thread.run("hi", { outputSchema: { type: "object" } });
  await expect(turn.completed).rejects.toThrow(/error when mocking a module/);
  await client.close();
});

it("a command fails its result and exit with the load's error when its runner cannot load, and its output completes", async () => {
  const { client } = await connect();
  const command = client.exec(["true"]);
  const output = firstValueFrom(command.output$.pipe(toArray()));
  await expect(command.result).rejects.toThrow(/error when mocking a module/);
  await expect(command.exit).rejects.toThrow(/error when mocking a module/);
  expect(await output).toEqual([]);
  await expect(command.write("x")).rejects.toThrow(/error when mocking a module/);
  await client.close();
});

it("a request codex answers -32001 is not retried when the retries cannot load: ServerOverloadedError after its one attempt", async () => {
  const { server, client } = await connect({ overload: { "thread/start": 1 } });
  const refused = await client.startThread().catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(ServerOverloadedError);
  expect(refused).toMatchObject({ code: "SERVER_OVERLOADED", attempts: 1 });
  expect(server.received.filter((message) => "method" in message && message.method === "thread/start")).toHaveLength(1);
  await client.close();
});

it("the watchdog reports a read-back that cannot load and tries again later; the turn still ends with the client", async () => {
  const { client } = await connect({ turns: [{ deltas: ["lost"], dropTurnCompleted: true }] });
  const thread = await client.startThread();
  const turn = thread.run("hi", { watchdogGraceMs: 10 });
  const reported = firstValueFrom(client.diagnostics$.pipe(filter((diagnostic) => diagnostic.kind === "turn-recovery")));
  expect((await reported).message).toMatch(/could not load the read-back of an ended turn/);
  const ended = turn.completed.catch((error: unknown) => error);
  await client.close();
  expect(await ended).toMatchObject({ code: "CONNECTION_CLOSED" });
});
