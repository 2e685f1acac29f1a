// The runtime's short hints name the same options as SERVER_REQUEST_DEFAULTS' prose (which stays
// out of bundles that do not import it), for every method it knows.
import { expect, it } from "vitest";
import { SERVER_REQUEST_DEFAULTS } from "../../src/client/server-request-defaults.js";
import { SERVER_REQUEST_HINTS, unhandledRequestMessage } from "../../src/client/server-request-hints.js";

it("has a hint for every method SERVER_REQUEST_DEFAULTS knows, naming an option its answerWith names", () => {
  expect(Object.keys(SERVER_REQUEST_HINTS).sort()).toEqual(Object.keys(SERVER_REQUEST_DEFAULTS).sort());
  for (const [method, hint] of Object.entries(SERVER_REQUEST_HINTS)) {
    const answerWith = SERVER_REQUEST_DEFAULTS[method as keyof typeof SERVER_REQUEST_DEFAULTS]!.answerWith;
    const options = hint!.match(/[A-Za-z]+/g)!.filter((word) => word !== "or");
    for (const option of options) expect(answerWith, method).toContain(option);
  }
});

it("says what answers a known method, and no helper yet for another", () => {
  expect(unhandledRequestMessage("item/tool/call")).toBe("refused item/tool/call with -32601: no handler is registered; answer it with tools (defineTool)");
  expect(unhandledRequestMessage("toString")).toMatch(/^no helper yet for toString/);
});
