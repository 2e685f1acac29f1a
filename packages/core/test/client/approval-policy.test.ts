import { describe, expect, it } from "vitest";
import { connect } from "../support/connect-to-fake.js";

describe("approvals (fake server)", () => {
  it("declines approvals by default, accepts for the session when told, and asks a callback", async () => {
    const params = { threadId: "t", turnId: "u", itemId: "i", startedAtMs: 0, command: "rm -rf /", cwd: "/", reason: null };
    const declining = await connect();
    expect(await declining.server.request("item/commandExecution/requestApproval", params)).toEqual({ result: { decision: "decline" } });
    expect(await declining.server.request("item/fileChange/requestApproval", params)).toEqual({ result: { decision: "decline" } });
    await declining.client.close();

    const accepting = await connect({}, { approvals: "acceptForSession" });
    expect(await accepting.server.request("item/commandExecution/requestApproval", params)).toEqual({ result: { decision: "acceptForSession" } });
    await accepting.client.close();

    const seen: string[] = [];
    const asking = await connect({}, { approvals: (request) => (seen.push(request.kind), "accept") });
    expect(await asking.server.request("execCommandApproval", params)).toEqual({ result: { decision: "approved" } });
    expect(seen).toEqual(["execCommand"]);
    await asking.client.close();
  });
});
