// Security defaults, against the real codex app-server: a command never runs unless the caller
// chose a permissive policy, unknown server requests always get -32601, and secrets in what the
// server prints never reach errors, diagnostics or logs.
import { existsSync } from "node:fs";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { CodexClient, JSON_RPC_METHOD_NOT_FOUND, type ConnectionDiagnostic } from "@codex-rpc/core";
import type { AskForApproval } from "@codex-rpc/protocol";
import { spawnCodexAppServer } from "@codex-rpc/stdio";
import { FakeAppServer, MockResponsesProvider, createCodexHome, reply } from "@codex-rpc/testing";
import { pinnedCodexBinary } from "../support/pinned-codex.js";
import { recordReliability } from "./support/reliability-report.js";

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
const cleanups: Array<() => Promise<unknown>> = [];
beforeAll(() => process.on("unhandledRejection", onUnhandled));
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(() => {
  process.off("unhandledRejection", onUnhandled);
  expect(unhandled.map(String)).toEqual([]);
});

/** One turn in which the model runs `touch marker` inside the workspace (no escalation asked). */
async function markerTurn(threadPolicy: AskForApproval | undefined, sandbox?: "workspace-write" | "danger-full-access") {
  const call = reply.execCommand({ cmd: "touch marker.txt" });
  const provider = await MockResponsesProvider.start({ script: [call, reply.text("done")] });
  const home = await createCodexHome({ provider });
  const workspace = await mkdtemp(join(tmpdir(), "codex-rpc-security-"));
  const transport = await spawnCodexAppServer({ codexPath: pinnedCodexBinary(), env: { PATH: process.env.PATH ?? "", ...home.env }, cwd: workspace });
  const client = await CodexClient.connect(transport);
  cleanups.push(async () => {
    await client.close();
    await provider.close();
    await home.cleanup();
    await rm(workspace, { recursive: true, force: true });
  });
  const commandStatuses: string[] = [];
  const thread = await client.startThread({
    cwd: workspace,
    ...(threadPolicy === undefined ? {} : { approvalPolicy: threadPolicy }),
    ...(sandbox ? { sandbox } : {}),
  });
  const done = await thread.run("make the marker").completed;
  for (const item of done.items) if (item.type === "commandExecution") commandStatuses.push(item.status);
  return { marker: join(workspace, "marker.txt"), commandStatuses };
}

it("never runs a command when the caller named no approval policy: the client asks codex to ask, and declines", async () => {
  // Both turns may write the workspace (sandbox "workspace-write"): only the policy differs.
  const unsaid = await markerTurn(undefined, "workspace-write");
  expect(existsSync(unsaid.marker)).toBe(false);
  expect(unsaid.commandStatuses).toEqual(["declined"]);

  // The control: with a policy the caller chose to be permissive, the very same turn runs it.
  const permissive = await markerTurn("never", "workspace-write");
  expect(existsSync(permissive.marker)).toBe(true);
  expect(permissive.commandStatuses).toEqual(["completed"]);
  recordReliability({ area: "security: no command without an explicit policy", cases: 2 });
}, 60_000);

it("answers every server request it has no handler for with -32601, whatever its name", async () => {
  const server = new FakeAppServer({ framing: "ndjson" });
  const client = await CodexClient.connect(server.transport, { handlers: { "item/tool/requestUserInput": () => ({ answers: {} }) } });
  cleanups.push(() => client.close());
  let cases = 0;
  await fc.assert(
    fc.asyncProperty(fc.string({ minLength: 1, maxLength: 40 }), async (method) => {
      fc.pre(method !== "item/tool/requestUserInput");
      cases++;
      const answer = await server.request(method, { anything: 1 });
      expect(answer).toMatchObject({ error: { code: JSON_RPC_METHOD_NOT_FOUND } });
    }),
    { numRuns: 500 },
  );
  expect(server.pendingServerRequests).toBe(0);
  recordReliability({ area: "security: unknown server requests get -32601", cases });
});

it("redacts bearer tokens and API keys from errors, diagnostics and logs", async () => {
  const token = "tok_9f8e7d6c5b4a39281706f5e4";
  const apiKey = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWx0123";
  const dir = await mkdtemp(join(tmpdir(), "codex-rpc-redact-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  // A stand-in server that leaks secrets every way it can, then dies.
  const leaky = join(dir, "leaky-codex");
  await writeFile(
    leaky,
    `#!/usr/bin/env node
process.stderr.write("request failed: Authorization: Bearer ${token}\\n");
process.stderr.write("env OPENAI_API_KEY=${apiKey}\\n");
process.stderr.write(JSON.stringify({ headers: { authorization: "Bearer ${token}" }, api_key: "${apiKey}" }) + "\\n");
process.stdout.write("not json, token=${token} key ${apiKey}\\n");
setTimeout(() => process.exit(3), 100);
`,
  );
  await chmod(leaky, 0o755);
  const captured: string[] = [];
  const diagnostics: ConnectionDiagnostic[] = [];
  const originalError = console.error;
  console.error = (...args: unknown[]) => captured.push(args.map(String).join(" "));
  try {
    const transport = await spawnCodexAppServer({ codexPath: leaky, env: { PATH: process.env.PATH ?? "" } });
    transport.diagnostics$.subscribe((diagnostic) => diagnostics.push(diagnostic));
    const error = await CodexClient.connect(transport).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "CONNECTION_CLOSED", close: { exitCode: 3 } });
    console.error(error); // what a user's log line would show
    captured.push(String(error), (error as Error).stack ?? "", JSON.stringify(error), JSON.stringify((error as { close: unknown }).close));
  } finally {
    console.error = originalError;
  }
  captured.push(...diagnostics.map((diagnostic) => JSON.stringify(diagnostic)));
  expect(diagnostics.map((diagnostic) => diagnostic.kind)).toEqual(expect.arrayContaining(["stderr", "invalid-json"]));
  const everything = captured.join("\n");
  expect(everything).toContain("[REDACTED]");
  expect(everything).toContain("request failed"); // the rest of the line survives
  expect(everything).not.toContain(token);
  expect(everything).not.toContain(apiKey);
  recordReliability({ area: "security: secrets redacted", cases: 1, faults: 1 });
});
