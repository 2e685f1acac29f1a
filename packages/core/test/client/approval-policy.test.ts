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

  it("checks decisions against availableDecisions: the policy acceptForSession accepts where no session is offered, a callback's unoffered decision is refused", async () => {
    // What codex 0.169.0 offers for a command (measured): accept, an amendment object, cancel.
    const offered = {
      threadId: "t",
      turnId: "u",
      itemId: "i",
      startedAtMs: 0,
      command: "ls",
      cwd: "/",
      reason: null,
      availableDecisions: ["accept", { acceptWithExecpolicyAmendment: {} }, "cancel"],
    };
    const policy = await connect({}, { approvals: "acceptForSession" });
    expect(await policy.server.request("item/commandExecution/requestApproval", offered)).toEqual({ result: { decision: "accept" } });
    const withSession = { ...offered, availableDecisions: ["accept", "acceptForSession", "cancel"] };
    expect(await policy.server.request("item/commandExecution/requestApproval", withSession)).toEqual({ result: { decision: "acceptForSession" } });
    await policy.client.close();

    const callback = await connect({}, { approvals: () => "acceptForSession" });
    const refused = (await callback.server.request("item/commandExecution/requestApproval", offered)) as { error?: { code: number; message: string } };
    expect(refused.error?.code).toBe(-32603);
    expect(refused.error?.message).toContain('the decision "acceptForSession" is not one the server offered (accept, cancel)');
    // Declining stays allowed even where the server does not list it.
    const declining = await connect({}, { approvals: () => "decline" });
    expect(await declining.server.request("item/commandExecution/requestApproval", offered)).toEqual({ result: { decision: "decline" } });
    await Promise.all([callback.client.close(), declining.client.close()]);
  });
});
