// A string cut inside a surrogate pair (a prompt truncated by UTF-16 index, say) against the real
// codex: JSON.stringify writes it as an escape codex refuses, and codex then drops the whole line
// without an answer, so the request waited out its timeout (120 s by default). The client sends
// U+FFFD instead, as a UTF-8 encoder does.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CodexClient } from "@codex-rpc/core";
import { spawnCodexAppServer } from "@codex-rpc/stdio";
import { MockResponsesProvider, createCodexHome, reply, type CodexHome } from "@codex-rpc/testing";
import { pinnedCodexBinary } from "./support/pinned-codex.js";

let provider: MockResponsesProvider;
let home: CodexHome;
let workspace: string;
let client: CodexClient;

beforeAll(async () => {
  provider = await MockResponsesProvider.start({ script: [reply.text("Got it.")] });
  home = await createCodexHome({ provider });
  workspace = await mkdtemp(join(tmpdir(), "codex-rpc-workspace-"));
  const transport = await spawnCodexAppServer({ codexPath: pinnedCodexBinary(), env: { PATH: process.env.PATH ?? "", ...home.env }, cwd: workspace });
  // Short enough that a dropped line fails the test rather than its timeout.
  client = await CodexClient.connect(transport, { requestTimeoutMs: 5_000 });
});

afterAll(async () => {
  await client?.close();
  await provider?.close();
  await home?.cleanup();
  if (workspace) await rm(workspace, { recursive: true, force: true });
});

it("a lone surrogate in a thread name and in a prompt: codex answers both, and the model reads U+FFFD", async () => {
  const thread = await client.startThread({ cwd: workspace, approvalPolicy: "never" });
  await thread.setName("cut \ud83d");
  const done = await thread.run("Hello \ud83d").completed;
  expect(done.status).toBe("completed");
  expect(provider.requests[0]?.lastUserText()).toContain("Hello \ufffd");
});
