// A server request is answered even when the client's default answers (loaded on demand) cannot be
// loaded, as when a page's chunk fails to download: declined where a decline exists, else -32601.
import { expect, it, vi } from "vitest";
import { fallbackAnswer } from "../../src/client/server-request-fallback.js";
import { connect } from "../support/connect-to-fake.js";

vi.mock("../../dist/client/server-request-answers.js", () => {
  throw new Error("chunk failed to load");
});

it("declines approvals, elicitations and user input, and refuses anything else with -32601", () => {
  expect(fallbackAnswer("item/commandExecution/requestApproval")).toEqual({ decision: "decline" });
  expect(fallbackAnswer("item/permissions/requestApproval")).toEqual({ permissions: {}, scope: "turn" });
  expect(fallbackAnswer("execCommandApproval")).toMatchObject({ decision: { denied: {} } });
  expect(fallbackAnswer("mcpServer/elicitation/request")).toEqual({ action: "decline" });
  expect(fallbackAnswer("item/tool/requestUserInput")).toEqual({ answers: {} });
  expect(() => fallbackAnswer("item/somethingNew")).toThrow(expect.objectContaining({ rpcCode: -32601 }));
  expect(() => fallbackAnswer("toString")).toThrow(expect.objectContaining({ rpcCode: -32601 }));
});

it("still answers a server request when the default answers fail to load, and says why on diagnostics", async () => {
  const { server, client } = await connect({}, { approvals: "acceptForSession" });
  const diagnostics: string[] = [];
  client.diagnostics$.subscribe((diagnostic) => diagnostics.push(`${diagnostic.kind}: ${diagnostic.message}`));
  const approval = { threadId: "t", turnId: "u", itemId: "i", command: "ls", cwd: "/" };
  expect(await server.request("item/commandExecution/requestApproval", approval)).toEqual({ result: { decision: "decline" } });
  expect(await server.request("item/somethingNew", {})).toMatchObject({ error: { code: -32601 } });
  expect(diagnostics).toContainEqual(expect.stringMatching(/^handler-error: the client's default answers could not be loaded: /));
  // Answered without the module: the clock and registered handlers.
  expect(await server.request("currentTime/read", {})).toMatchObject({ result: { currentTimeAt: expect.any(Number) } });
  await client.close();
});
