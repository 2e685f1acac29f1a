import type { ServerNotification, ThreadItem } from "@codex-rpc/protocol";
import { describe, expect, it } from "vitest";
import { TurnItemsFold } from "../../src/session/turn-items.js";

const THREAD = "thread-1";
const TURN = "turn-1";

function started(item: ThreadItem): ServerNotification {
  return { method: "item/started", params: { threadId: THREAD, turnId: TURN, item } } as unknown as ServerNotification;
}

function agentDelta(itemId: string, delta: string): ServerNotification {
  return { method: "item/agentMessage/delta", params: { threadId: THREAD, turnId: TURN, itemId, delta } } as unknown as ServerNotification;
}

function outputDelta(itemId: string, delta: string): ServerNotification {
  return { method: "item/commandExecution/outputDelta", params: { threadId: THREAD, turnId: TURN, itemId, delta } } as unknown as ServerNotification;
}

const message = (id: string, text = ""): ThreadItem => ({ type: "agentMessage", id, text }) as unknown as ThreadItem;
const command = (id: string): ThreadItem => ({ type: "commandExecution", id, command: "ls", aggregatedOutput: null }) as unknown as ThreadItem;

/** Delta texts of mixed sizes: runs of small ones (joined as they come) and large ones (kept as they are). */
function deltas(count: number): string[] {
  return Array.from({ length: count }, (_, i) => (i % 97 === 0 ? `[${i}]`.padEnd(2000, "x") : ` ${i}`));
}

describe("TurnItemsFold", () => {
  it.each([1, 63, 64, 65, 128, 129, 1000, 5000])("keeps the exact text of %i deltas, whenever it is asked for", (count) => {
    const fold = new TurnItemsFold();
    fold.apply(started(message("m", "Hi:")));
    const pieces = deltas(count);
    let expected = "Hi:";
    for (const [i, piece] of pieces.entries()) {
      fold.apply(agentDelta("m", piece));
      expected += piece;
      // Asked for now and then in the middle of a run: what is joined so far and what is loose must both be in it.
      if (i % 777 === 0) expect(fold.finalMessage()).toEqual({ id: "m", text: expected });
    }
    expect(fold.finalMessage()).toEqual({ id: "m", text: expected });
    expect(fold.list()).toEqual([{ type: "agentMessage", id: "m", text: expected }]);
  });

  it("keeps the deltas of interleaved items apart", () => {
    const fold = new TurnItemsFold();
    fold.apply(started(message("a")));
    fold.apply(started(command("c")));
    let text = "";
    let output = "";
    for (let i = 0; i < 300; i++) {
      fold.apply(agentDelta("a", `a${i} `));
      text += `a${i} `;
      // Runs of different lengths, so the item the last delta went to keeps changing.
      for (let k = 0; k < i % 3; k++) {
        fold.apply(outputDelta("c", `c${i}.${k}\n`));
        output += `c${i}.${k}\n`;
      }
    }
    const [agent, cmd] = fold.list() as unknown as [{ text: string }, { aggregatedOutput: string }];
    expect(agent.text).toBe(text);
    expect(cmd.aggregatedOutput).toBe(output);
  });

  it("starts an item over when it is started again, and ignores deltas of items it never saw", () => {
    const fold = new TurnItemsFold();
    fold.apply(started(message("m")));
    for (let i = 0; i < 70; i++) fold.apply(agentDelta("m", "old "));
    fold.apply(started(message("m", "new:")));
    expect(fold.apply(agentDelta("m", " fresh"))).toBe("delta");
    expect(fold.apply(agentDelta("ghost", "lost"))).toBeUndefined();
    expect(fold.finalMessage()).toEqual({ id: "m", text: "new: fresh" });
  });

  it("latest() gives each item's last update so far: started, grown by deltas, or completed", () => {
    const fold = new TurnItemsFold();
    fold.apply(started(message("a")));
    fold.apply(agentDelta("a", "Hel"));
    fold.apply(agentDelta("a", "lo"));
    fold.apply(started(command("c")));
    expect(fold.latest()).toEqual([
      { phase: "delta", item: message("a", "Hello") },
      { phase: "started", item: command("c") },
    ]);
    fold.apply({ method: "item/completed", params: { threadId: THREAD, turnId: TURN, item: message("a", "Hello") } } as unknown as ServerNotification);
    expect(fold.latest().map((update) => update.phase)).toEqual(["completed", "started"]);
  });
});
