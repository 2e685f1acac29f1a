import { describe, expect, it } from "vitest";
import type { FakeAppServer } from "@codex-rpc/core/testing";
import { connect } from "../support/connect-to-fake.js";
import { protocolTurn as turn } from "../support/protocol-turn.js";

/**
 * What codex 0.169.0 sends for an inline review (measured): the items and turn/completed carry the
 * id review/start answered with; the reviewer sub-agent's turn/started has an id of its own; the
 * reviewer's message only starts.
 */
function playReview(server: FakeAppServer, threadId: string, turnId: string, review: string | undefined): void {
  const item = (body: object) => ({ threadId, turnId, item: body, startedAtMs: 0, completedAtMs: 0 });
  const entered = { type: "enteredReviewMode", id: "entered", review: "current changes" };
  server.notify("item/started", item(entered));
  server.notify("item/completed", item(entered));
  server.notify("turn/started", { threadId, turn: turn("reviewer-sub-turn", "inProgress", turnId) });
  server.notify("item/started", item({ type: "agentMessage", id: "reviewer", text: "", phase: null, memoryCitation: null }));
  if (review !== undefined) {
    const exited = { type: "exitedReviewMode", id: "exited", review };
    server.notify("item/started", item(exited));
    server.notify("item/completed", item(exited));
    const message = { type: "agentMessage", id: "rendered", text: review, phase: null, memoryCitation: null };
    server.notify("item/started", item(message));
    server.notify("item/completed", item(message));
  }
  server.notify("turn/completed", { threadId, turn: turn(turnId, review === undefined ? "interrupted" : "completed") });
}

describe("thread.review() (fake server)", () => {
  it("sends review/start with the target (and delivery when given), follows the turn it names, and resolves `review` with the exitedReviewMode text", async () => {
    const { server, client } = await connect();
    const thread = await client.startThread();
    server.respond("review/start", () => {
      setTimeout(() => playReview(server, thread.id, "review-turn", "Looks fine.\n\nReview comment:\n\n- [P2] Nit — /a.ts:1-1\n  body"), 1);
      return { result: { turn: turn("review-turn", "inProgress", null), reviewThreadId: thread.id } };
    });
    const reviewTurn = thread.review({ type: "baseBranch", branch: "main" }, { delivery: "inline" });
    expect(await reviewTurn.started).toBe("review-turn");
    const done = await reviewTurn.review;
    expect(done).toMatchObject({
      id: "review-turn",
      status: "completed",
      review: "Looks fine.\n\nReview comment:\n\n- [P2] Nit — /a.ts:1-1\n  body",
      reviewed: "current changes",
      finalText: "Looks fine.\n\nReview comment:\n\n- [P2] Nit — /a.ts:1-1\n  body",
      incompleteItemIds: ["reviewer"],
    });
    expect(await reviewTurn.completed).toMatchObject({ id: "review-turn", status: "completed" });
    expect(server.received.find((m) => "method" in m && m.method === "review/start")).toMatchObject({
      params: { threadId: thread.id, target: { type: "baseBranch", branch: "main" }, delivery: "inline" },
    });
    await client.close();
  });

  it("a review that ends without exitedReviewMode (interrupted) has review null", async () => {
    const { server, client } = await connect();
    const thread = await client.startThread();
    server.respond("review/start", () => {
      setTimeout(() => playReview(server, thread.id, "review-turn", undefined), 1);
      return { result: { turn: turn("review-turn", "inProgress", null), reviewThreadId: thread.id } };
    });
    const done = await thread.review({ type: "custom", instructions: "Check the docs" }).review;
    expect(done).toMatchObject({ status: "interrupted", review: null, reviewed: "current changes" });
    expect(server.received.find((m) => "method" in m && m.method === "review/start")).toMatchObject({
      params: { threadId: thread.id, target: { type: "custom", instructions: "Check the docs" } },
    });
    await client.close();
  });

  it("a refused review/start rejects `review` and `completed`", async () => {
    const { server, client } = await connect();
    const thread = await client.startThread();
    server.respond("review/start", () => ({ error: { code: -32600, message: "no changes" } }));
    const reviewTurn = thread.review({ type: "uncommittedChanges" });
    await expect(reviewTurn.review).rejects.toMatchObject({ code: "SERVER_ERROR", rpcMessage: "no changes" });
    await expect(reviewTurn.completed).rejects.toMatchObject({ code: "SERVER_ERROR" });
    await client.close();
  });

  it('a delivery it cannot follow ("detached", which codex 0.160.0 has) is an InvalidOptionError before anything is sent', async () => {
    const { server, client } = await connect();
    const thread = await client.startThread();
    expect(() => thread.review({ type: "uncommittedChanges" }, { delivery: "detached" as never })).toThrow(
      expect.objectContaining({ code: "INVALID_OPTION", option: "delivery" }),
    );
    expect(server.received.some((m) => "method" in m && m.method === "review/start")).toBe(false);
    await client.close();
  });
});
