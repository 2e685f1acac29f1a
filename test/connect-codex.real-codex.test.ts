// connectCodex (@codex-rpc/stdio) against the real, pinned codex app-server, offline: typed by
// `protocol` like CodexClient.connect, and with `reconnect` it starts a new server when one dies.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { firstValueFrom } from "rxjs";
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import type { CodexClient, CodexProtocol } from "@codex-rpc/core";
import { protocol as experimental } from "@codex-rpc/protocol/experimental";
import { connectCodex } from "@codex-rpc/stdio";
import { MockResponsesProvider, createCodexHome, reply } from "@codex-rpc/testing";
import { descendants, isRunning } from "./support/process-tree.js";

type ExperimentalTypes = typeof experimental extends CodexProtocol<infer T> ? T : never;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("connectCodex against the real codex app-server", () => {
  it("is typed by `protocol`, like CodexClient.connect (checked by the type-check, never run)", () => {
    const dynamicTools = [{ type: "function" as const, name: "weather", description: "d", inputSchema: {} }];
    async function typedByProtocol(): Promise<void> {
      const client: CodexClient<ExperimentalTypes> = await connectCodex({ protocol: experimental });
      await client.startThread({ dynamicTools }); // experimental params need no cast
      const stable = await connectCodex();
      // @ts-expect-error the stable surface has no `dynamicTools`
      await stable.startThread({ dynamicTools });
    }
    expectTypeOf(typedByProtocol).toBeFunction();
  });

  it("with `reconnect`, starts a new server when its server is killed, and resumes the thread (a signal aborted after connect changes nothing)", async () => {
    const provider = await MockResponsesProvider.start({ script: [reply.text("Before.", { chunks: 2 }), reply.text("After.", { chunks: 2 })] });
    cleanups.push(() => provider.close());
    const home = await createCodexHome({ provider });
    cleanups.push(() => home.cleanup());
    const workspace = await mkdtemp(join(tmpdir(), "codex-rpc-connect-codex-"));
    cleanups.push(() => rm(workspace, { recursive: true, force: true }));

    const before = new Set(descendants());
    const handshake = new AbortController();
    const client = await connectCodex({
      env: { PATH: process.env.PATH ?? "", ...home.env },
      cwd: workspace,
      reconnect: { initialDelayMs: 10 },
      signal: handshake.signal,
    });
    handshake.abort(); // guards the first start and handshake only
    cleanups.push(() => client.close());
    const thread = await client.startThread({ cwd: workspace, approvalPolicy: "never" });
    expect((await thread.run("One.").completed).finalText).toBe("Before.");

    const first = descendants().filter((pid) => !before.has(pid));
    expect(first.length).toBeGreaterThan(0);
    const reconnected = firstValueFrom(client.reconnections$);
    for (const pid of first) process.kill(pid, "SIGKILL");
    expect((await reconnected).threads).toMatchObject([{ threadId: thread.id, resumed: true }]);
    for (const pid of first) expect(isRunning(pid)).toBe(false);

    expect((await thread.run("Two.").completed).finalText).toBe("After.");
    await client.close();
    expect(descendants().filter((pid) => !before.has(pid))).toEqual([]);
  });
});
