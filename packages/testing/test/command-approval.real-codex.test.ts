// An `exec_command` call that needs approval, through the real codex app-server: with
// approvalPolicy "untrusted" and `sandbox_permissions: "require_escalated"` codex sends
// `item/commandExecution/requestApproval`; the client's decision decides whether it runs.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { CommandExecutionApprovalDecision } from "@codex-rpc/protocol/experimental";
import { reply } from "../src/reply.js";
import { OfflineCodex } from "@codex-rpc/test-support/offline-codex.js";

async function runApprovalTurn(decision: CommandExecutionApprovalDecision) {
  const call = reply.execCommand({
    cmd: "touch marker.txt && echo command-ran",
    sandbox_permissions: "require_escalated",
    justification: "Create the marker file?",
  });
  const codex = await OfflineCodex.start({ script: [call, reply.text("Done.")] });
  const approvals: unknown[] = [];
  codex.client.handle("item/commandExecution/requestApproval", (params) => {
    approvals.push(params);
    return { decision };
  });
  const thread = await codex.startThread({ approvalPolicy: "untrusted" });
  const run = await codex.runTurn(thread, "make the marker");
  return { codex, call, approvals, run, marker: join(codex.workspace, "marker.txt") };
}

describe("exec_command approval against the real codex app-server", () => {
  let codex: OfflineCodex | undefined;
  afterEach(async () => {
    await codex?.dispose();
    codex = undefined;
  });

  it("asks the client, runs the command on accept and sends its output back to the model", async () => {
    const result = await runApprovalTurn("accept");
    codex = result.codex;
    const { call, approvals, run, marker } = result;

    expect(approvals).toEqual([
      expect.objectContaining({
        itemId: call.callId,
        reason: "Create the marker file?",
        command: expect.stringContaining("touch marker.txt && echo command-ran"),
        cwd: codex.workspace,
      }),
    ]);
    expect(existsSync(marker)).toBe(true);
    const commandItems = run.notifications.flatMap((n) => (n.method === "item/completed" && n.params.item.type === "commandExecution" ? [n.params.item] : []));
    expect(commandItems).toEqual([expect.objectContaining({ id: call.callId, status: "completed", exitCode: 0, aggregatedOutput: "command-ran\n" })]);
    expect(run.turn.status).toBe("completed");

    // The next request answers the call: its function_call_output carries the command's output.
    const requests = codex.provider.requests;
    expect(requests).toHaveLength(2);
    expect(requests[0]?.functionCallOutput(call.callId)).toBeUndefined();
    expect(requests[1]?.functionCallOutput(call.callId)).toEqual(expect.stringContaining("command-ran"));
  });

  it("does not run the command on decline and tells the model so", async () => {
    const result = await runApprovalTurn("decline");
    codex = result.codex;
    const { call, approvals, run, marker } = result;

    expect(approvals).toHaveLength(1);
    expect(existsSync(marker)).toBe(false);
    const commandItems = run.notifications.flatMap((n) => (n.method === "item/completed" && n.params.item.type === "commandExecution" ? [n.params.item] : []));
    expect(commandItems).toEqual([expect.objectContaining({ id: call.callId, status: "declined", exitCode: null, aggregatedOutput: null })]);
    // Codex 0.169.0 answers the call with `exec_command failed: CreateProcess { message:
    // "Rejected(\"rejected by user\")" }` and lets the model go on; the turn still completes.
    expect(codex.provider.requests[1]?.functionCallOutput(call.callId)).toEqual(expect.stringContaining("rejected by user"));
    expect(run.turn.status).toBe("completed");
  });

  it("a message and a call in one response; approvalPolicy never runs the command without asking", async () => {
    const call = reply.execCommand({ cmd: "echo no-questions-asked" });
    codex = await OfflineCodex.start({ script: [reply.combined(reply.text("Let me check."), call), reply.text("Done.")] });
    const thread = await codex.startThread({ approvalPolicy: "never" });
    const run = await codex.runTurn(thread, "check");

    expect(codex.serverRequests).toEqual([]);
    const completedTypes = run.notifications.flatMap((n) => (n.method === "item/completed" ? [n.params.item.type] : []));
    expect(completedTypes).toEqual(["userMessage", "agentMessage", "commandExecution", "agentMessage"]);
    expect(codex.provider.requests[1]?.functionCallOutput(call.callId)).toEqual(expect.stringContaining("no-questions-asked"));
    expect(run.turn.status).toBe("completed");
  });
});
