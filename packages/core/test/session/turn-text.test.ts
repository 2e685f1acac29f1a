// text$ is the agent's text: every delta, and an agent message that came whole (codex sends a
// review's closing message as item/started + item/completed with no delta), never twice.
import { firstValueFrom, toArray } from "rxjs";
import { expect, it } from "vitest";
import { connect } from "../support/connect-to-fake.js";

const message = (id: string, text: string) => ({ type: "agentMessage", id, text, phase: null, memoryCitation: null });

it("an agent message that completes without a delta is on text$ whole; a streamed one is not repeated", async () => {
  const { server, client } = await connect();
  const thread = await client.startThread();
  const turn = { id: "t1", items: [], status: "inProgress", error: null };
  server.respond("turn/start", () => {
    setTimeout(() => {
      const threadId = thread.id;
      server.notify("turn/started", { threadId, turn });
      server.notify("item/started", { threadId, turnId: "t1", item: message("streamed", ""), startedAtMs: 1 });
      server.notify("item/agentMessage/delta", { threadId, turnId: "t1", itemId: "streamed", delta: "Hello " });
      server.notify("item/agentMessage/delta", { threadId, turnId: "t1", itemId: "streamed", delta: "there." });
      server.notify("item/completed", { threadId, turnId: "t1", item: message("streamed", "Hello there."), completedAtMs: 1 });
      server.notify("item/started", { threadId, turnId: "t1", item: message("whole", ""), startedAtMs: 1 });
      server.notify("item/completed", { threadId, turnId: "t1", item: message("whole", " The review."), completedAtMs: 1 });
      server.notify("item/completed", { threadId, turnId: "t1", item: message("never-started", " And more."), completedAtMs: 1 });
      server.notify("item/completed", { threadId, turnId: "t1", item: message("empty", ""), completedAtMs: 1 });
      server.notify("turn/completed", { threadId, turn: { ...turn, status: "completed" } });
    }, 1);
    return { result: { turn } };
  });
  const running = thread.run("review this");
  const text = firstValueFrom(running.text$.pipe(toArray()));
  await running.completed;
  expect(await text).toEqual(["Hello ", "there.", " The review.", " And more."]);
  await client.close();
});
