// The fallback (server-request-fallback.ts) repeats the declines the default answers give, so a
// page whose chunk failed to load answers as a page that loaded it would with approvals "decline"
// and no handlers. This keeps the two in step: each method the fallback declines, asked of a client
// that loaded the default answers, gets the same answer.
import { expect, it } from "vitest";
import { fallbackAnswer } from "../../src/client/server-request-fallback.js";
import { connect } from "../support/connect-to-fake.js";

const PARAMS: Record<string, unknown> = {
  "item/commandExecution/requestApproval": { threadId: "t", turnId: "u", itemId: "i", command: "ls", cwd: "/" },
  "item/fileChange/requestApproval": { threadId: "t", turnId: "u", itemId: "i" },
  "item/permissions/requestApproval": { threadId: "t", turnId: "u", itemId: "i", permissions: {} },
  execCommandApproval: { conversationId: "t", callId: "c", command: ["ls"], cwd: "/", parsedCmd: [] },
  applyPatchApproval: { conversationId: "t", callId: "c", fileChanges: {} },
  "mcpServer/elicitation/request": {
    threadId: "t",
    turnId: "u",
    serverName: "s",
    mode: "form",
    message: "?",
    requestedSchema: { type: "object", properties: {} },
  },
  "item/tool/requestUserInput": { threadId: "t", turnId: "u", itemId: "i", questions: [] },
};

/** The legacy approvals' rejection text says who declined (the policy, or the fallback): the shape must match. */
const shape = (value: unknown): unknown => JSON.parse(JSON.stringify(value).replace(/"rejection":"[^"]*"/g, '"rejection":"…"'));

it("declines each request the way the loaded default answers do (approvals: decline, no handlers)", async () => {
  const { server, client } = await connect({}, { approvals: "decline" });
  for (const [method, params] of Object.entries(PARAMS)) {
    const answered = await server.request(method, params);
    expect({ method, answer: shape(answered) }).toEqual({ method, answer: { result: shape(fallbackAnswer(method)) } });
  }
  await client.close();
});
