import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { SERVER_REQUEST_DEFAULTS, serverRequestDefault } from "@codex-rpc/core";
import { SERVER_REQUEST_METHODS as STABLE_METHODS } from "@codex-rpc/protocol";
import { SERVER_REQUEST_METHODS as EXPERIMENTAL_METHODS } from "@codex-rpc/protocol/experimental";
import { serverRequestReply } from "../support/server-request-reply.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");

interface TableTool {
  renderServerRequestTable(input: { defaults: object; stableMethods: readonly string[]; experimentalMethods: readonly string[] }): string;
  withTable(readme: string, table: string): string;
  README: string;
}
const loadTool = async (): Promise<TableTool> => (await import(pathToFileURL(join(ROOT, "tools", "server-request-table.mjs")).href)) as TableTool;

describe("SERVER_REQUEST_DEFAULTS", () => {
  const methods = [...new Set<string>([...STABLE_METHODS, ...EXPERIMENTAL_METHODS])];

  it("has an entry for every server request of the stable and the experimental protocol, and none other", () => {
    // A method a newer protocol adds fails here until it gets a default (users see "no helper yet").
    expect(methods.filter((method) => serverRequestDefault(method) === undefined)).toEqual([]);
    expect(Object.keys(SERVER_REQUEST_DEFAULTS).filter((method) => !methods.includes(method))).toEqual([]);
    expect(EXPERIMENTAL_METHODS).toEqual(expect.arrayContaining(["currentTime/read", "attestation/generate"]));
  });

  it("is the table in the core README (node tools/server-request-table.mjs rewrites it)", async () => {
    const tool = await loadTool();
    const readme = readFileSync(tool.README, "utf8");
    const table = tool.renderServerRequestTable({
      defaults: SERVER_REQUEST_DEFAULTS,
      stableMethods: STABLE_METHODS,
      experimentalMethods: EXPERIMENTAL_METHODS,
    });
    expect(tool.withTable(readme, table), "packages/core/README.md is stale: run node tools/server-request-table.mjs").toBe(readme);
  });

  it("renders a method without an entry as no helper yet", async () => {
    const tool = await loadTool();
    const table = tool.renderServerRequestTable({
      defaults: SERVER_REQUEST_DEFAULTS,
      stableMethods: [...STABLE_METHODS, "item/somethingNew"],
      experimentalMethods: EXPERIMENTAL_METHODS,
    });
    expect(table).toContain('| `item/somethingNew` | stable | -32601 and an `unhandled-server-request` diagnostic "no helper yet" | **no helper yet**');
    expect(table.split("\n")).toHaveLength(2 + methods.length + 1);
  });
});

describe("server requests without a handler (scripted server)", () => {
  async function request(method: string, params: unknown) {
    const { reply, diagnostics } = await serverRequestReply(method, params);
    return { reply, diagnostics: diagnostics.filter((diagnostic) => diagnostic.kind === "unhandled-server-request").map((diagnostic) => diagnostic.message) };
  }

  it("refuses a method with no default with -32601 and a diagnostic saying no helper yet", async () => {
    expect(await request("item/somethingNew", {})).toEqual({
      reply: { error: { code: -32601, message: "Method not found: item/somethingNew (no handler registered in this client)" } },
      diagnostics: [expect.stringMatching(/^no helper yet for item\/somethingNew: refused with -32601/)],
    });
  });

  it("refuses attestation/generate and item/tool/call without tools, naming what would answer them", async () => {
    expect(await request("attestation/generate", {})).toMatchObject({
      reply: { error: { code: -32601 } },
      diagnostics: [expect.stringContaining("refused attestation/generate")],
    });
    expect(await request("item/tool/call", { tool: "x" })).toMatchObject({
      reply: { error: { code: -32601 } },
      diagnostics: [expect.stringContaining("answer it with tools")],
    });
  });

  it("answers currentTime/read with the client's clock", async () => {
    const before = Math.floor(Date.now() / 1000);
    const { reply } = await request("currentTime/read", { threadId: "t" });
    const at = (reply as { result: { currentTimeAt: number } }).result.currentTimeAt;
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });
});
