// More modules loaded on demand that never finish loading (see stalled-modules.test.ts): each is
// imported once in a file, so the uses a first file already made are here.
import { expect, it, vi } from "vitest";
import { CodexClient, ConnectionClosedError } from "@codex-rpc/core";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { connect } from "../support/connect-to-fake.js";

vi.mock("../../dist/client/reconnector.js", () => stalled());
vi.mock("../../dist/client/account-login.js", () => stalled());
vi.mock("../../dist/client/fs-files.js", () => stalled());
vi.mock("../../dist/session/structured-output-parse.js", () => stalled());
vi.mock("../../dist/session/command-run.js", () => stalled());
vi.mock("../../dist/session/page-walk.js", () => stalled());
vi.mock("../../dist/session/turn-interrupt.js", () => stalled());

function stalled(): Promise<never> {
  return new Promise<never>(() => {});
}

it("the client's close ends the calls and turns waiting on a load: ConnectionClosedError", async () => {
  const { server, client } = await connect({ turns: [{ deltas: ["{}"] }] });
  const thread = await client.startThread();
  const turn = thread.run("hi", { outputSchema: { type: "object" } });
  const output = turn.completed.catch((error: unknown) => error);
  const models = client
    .models()
    [Symbol.asyncIterator]()
    .next()
    .catch((error: unknown) => error);
  const write = client.fs.writeFile("/tmp/x", "x").catch((error: unknown) => error);
  const command = client.exec(["true"]);
  const [result, exit] = [command.result.catch((error: unknown) => error), command.exit.catch((error: unknown) => error)];
  await new Promise((resolve) => setTimeout(resolve, 20));
  await client.close();
  for (const outcome of [output, models, write, result, exit]) expect(await outcome).toBeInstanceOf(ConnectionClosedError);
  expect(server.received.filter((message) => "method" in message && message.method === "command/exec")).toEqual([]);
});

it("a login whose module stalls: its signal aborts it (RequestAbortedError)", async () => {
  const { client } = await connect();
  const controller = new AbortController();
  const login = client.account.loginWithChatGpt({ signal: controller.signal });
  await new Promise((resolve) => setTimeout(resolve, 10));
  controller.abort();
  await expect(login).rejects.toMatchObject({ code: "REQUEST_ABORTED", method: "account/login/start" });
  await client.close();
});

it("connect with `reconnect`, its loop stalling: fails after `requestTimeoutMs` as `initialize` would, nothing opened", async () => {
  const server = new FakeAppServer();
  const opened = vi.fn(async () => server.transport);
  await expect(CodexClient.connect(opened, { reconnect: true, requestTimeoutMs: 20 })).rejects.toMatchObject({
    code: "REQUEST_TIMEOUT",
    method: "initialize",
    timeoutMs: 20,
  });
  expect(opened).not.toHaveBeenCalled();
});

it("interrupt() whose module stalls: rejects after `requestTimeoutMs` (REQUEST_TIMEOUT, turn/interrupt); the turn runs on", async () => {
  const { client } = await connect({ turns: [{ hold: true }] }, { requestTimeoutMs: 30 });
  const thread = await client.startThread();
  const turn = thread.run("hi");
  await turn.started;
  await expect(turn.interrupt()).rejects.toMatchObject({ code: "REQUEST_TIMEOUT", method: "turn/interrupt", timeoutMs: 30 });
  await client.close();
  await expect(turn.completed).rejects.toBeInstanceOf(ConnectionClosedError);
});
