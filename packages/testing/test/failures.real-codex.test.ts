// How the real codex app-server (0.169.0, request_max_retries = stream_max_retries = 0) ends a
// turn when the model provider fails. In every failure case codex sends one `error`
// notification ({ error: { message, codexErrorInfo, … }, willRetry: false, threadId, turnId })
// and then `turn/completed` with status "failed" and the same `error` object on the turn.

import { afterEach, describe, expect, it } from "vitest";
import { reply } from "../src/reply.js";
import type { ScriptedReply } from "../src/scripted-reply.js";
import { OfflineCodex, type TurnRun } from "@codex-rpc/test-support/offline-codex.js";

function errorNotifications(run: TurnRun) {
  return run.notifications.flatMap((n) => (n.method === "error" ? [n.params] : []));
}

describe("provider failures against the real codex app-server", () => {
  let codex: OfflineCodex | undefined;
  afterEach(async () => {
    await codex?.dispose();
    codex = undefined;
  });

  async function runFailingTurn(script: readonly ScriptedReply[]): Promise<TurnRun> {
    codex = await OfflineCodex.start({ script });
    const thread = await codex.startThread();
    return codex.runTurn(thread, "hello?");
  }

  function expectFailedWith(run: TurnRun, error: { message: unknown; codexErrorInfo: unknown }): void {
    expect(run.turn.status).toBe("failed");
    expect(run.turn.error).toEqual(expect.objectContaining(error));
    expect(errorNotifications(run)).toEqual([expect.objectContaining({ willRetry: false, error: expect.objectContaining(error) })]);
  }

  it("httpError(500): codex replaces the body with a generic message (internalServerError)", async () => {
    const run = await runFailingTurn([reply.httpError(500, { error: { message: "not shown", type: "server_error" } })]);
    expectFailedWith(run, {
      message: "We’re currently experiencing high demand, which may cause temporary errors.",
      codexErrorInfo: "internalServerError",
    });
  });

  it("httpError(400): codex shows the body verbatim", async () => {
    const run = await runFailingTurn([reply.httpError(400, "the mock refuses")]);
    expectFailedWith(run, { message: "the mock refuses", codexErrorInfo: "other" });
  });

  it("httpError(401): codex quotes error.message, with the status and URL", async () => {
    const run = await runFailingTurn([reply.httpError(401, { error: { message: "bad key", type: "auth" } })]);
    expectFailedWith(run, {
      message: expect.stringMatching(/^unexpected status 401 Unauthorized: bad key, url: http:\/\/127\.0\.0\.1:\d+\/v1\/responses$/),
      codexErrorInfo: { httpConnectionFailed: { httpStatusCode: 401 } },
    });
  });

  it("httpError(429): codex reports the retry limit (0 retries configured)", async () => {
    const run = await runFailingTurn([reply.httpError(429)]);
    expectFailedWith(run, {
      message: "exceeded retry limit, last status: 429 Too Many Requests",
      codexErrorInfo: { responseTooManyFailedAttempts: { httpStatusCode: 429 } },
    });
  });

  it("cutStream: the streamed part arrives, the started message never completes, the turn fails", async () => {
    // Events: response.created, output_item.added, delta "This re", delta | cut | delta, done, completed.
    const run = await runFailingTurn([reply.cutStream({ afterEvents: 4, of: reply.text("This reply is cut short.", { chunks: 3 }) })]);
    expectFailedWith(run, {
      message: "stream disconnected before completion: stream closed before response.completed",
      codexErrorInfo: "other",
    });
    const methods = run.notifications.map((n) => n.method);
    const deltas = run.notifications.flatMap((n) => (n.method === "item/agentMessage/delta" ? [n.params.delta] : []));
    expect(deltas).toEqual(["This rep", "ly is cu"]);
    // item/started for the agentMessage, but no item/completed for it, and it is not in the turn.
    expect(run.notifications.some((n) => n.method === "item/started" && n.params.item.type === "agentMessage")).toBe(true);
    expect(run.notifications.some((n) => n.method === "item/completed" && n.params.item.type === "agentMessage")).toBe(false);
    expect(run.turn.items).toEqual([]);
    expect(methods.indexOf("error")).toBeLessThan(methods.indexOf("turn/completed"));
  });

  it("failed: response.failed's error message reaches the client", async () => {
    const run = await runFailingTurn([reply.failed("the model tripped")]);
    expectFailedWith(run, { message: "stream disconnected before completion: the model tripped", codexErrorInfo: "other" });
  });

  it("an unscripted request gets a 400 that says the script ran out, and is recorded", async () => {
    const run = await runFailingTurn([]);
    expectFailedWith(run, { message: expect.stringContaining("no scripted reply left for request #0"), codexErrorInfo: "other" });
    expect(codex?.provider.unexpectedRequests.map((r) => [r.outcome, r.method, r.path])).toEqual([["unscripted", "POST", "/v1/responses"]]);
  });

  it("hang: the turn stays in progress until turn/interrupt, which ends it as interrupted", async () => {
    codex = await OfflineCodex.start({ script: [reply.hang()] });
    const thread = await codex.startThread();
    const errors: unknown[] = [];
    codex.client.notifications("error").subscribe((params) => errors.push(params));
    const turn = thread.run("wait");
    await codex.provider.waitForRequests(1);
    await turn.interrupt();
    const completed = await turn.completed;
    expect(completed.turn.status).toBe("interrupted");
    expect(errors).toEqual([]);
  });

  it("hang: closing the provider ends the hanging stream and the turn fails", async () => {
    codex = await OfflineCodex.start({ script: [reply.hang()] });
    const thread = await codex.startThread();
    const turn = thread.run("wait");
    await codex.provider.waitForRequests(1);
    await codex.provider.close();
    const completed = await turn.completed;
    // No response headers were sent, so codex reports it as a failed request.
    expect(completed.turn).toEqual(
      expect.objectContaining({
        status: "failed",
        error: expect.objectContaining({
          message: "stream disconnected before completion: error sending request",
          codexErrorInfo: "other",
        }),
      }),
    );
  });
});
