// One real `codex app-server` wired to a fresh MockResponsesProvider and CODEX_HOME, plus the
// two steps every test repeats: start a thread, run a turn to its `turn/completed`.

import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { ThreadStartParams, Turn, TurnStartParams } from "@codex-rpc/protocol/experimental";
// Imports the modules, not the package index: the index also exports FakeAppServer, which needs
// @codex-rpc/core built, and these tests should not.
import { createCodexHome, type CodexHome, type CodexHomeOptions } from "../../src/codex-home.js";
import { MockResponsesProvider } from "../../src/mock-responses-provider.js";
import type { ScriptedReply } from "../../src/scripted-reply.js";
import { AppServerClient, type ReceivedNotification } from "./app-server-client.js";

export interface TurnRun {
  /** The turn as `turn/completed` reported it. */
  readonly turn: Turn;
  /** Every notification that names this turn, in arrival order. */
  readonly notifications: readonly ReceivedNotification[];
}

export interface OfflineCodexOptions {
  readonly script?: readonly ScriptedReply[];
  readonly home?: Omit<CodexHomeOptions, "provider">;
  /** More environment for the app-server (the home's variables win). */
  readonly env?: Readonly<Record<string, string>>;
}

function turnIdOf(notification: ReceivedNotification): string | undefined {
  const params = notification.params as { turnId?: unknown; turn?: { id?: unknown } } | undefined;
  if (typeof params?.turnId === "string") return params.turnId;
  return typeof params?.turn?.id === "string" ? params.turn.id : undefined;
}

export class OfflineCodex {
  private constructor(
    readonly provider: MockResponsesProvider,
    readonly home: CodexHome,
    readonly client: AppServerClient,
    /** The thread cwd: a `workspace` folder inside the temporary CODEX_HOME. */
    readonly workspace: string,
  ) {}

  static async start(options: OfflineCodexOptions = {}): Promise<OfflineCodex> {
    const provider = await MockResponsesProvider.start({ script: options.script ?? [] });
    const home = await createCodexHome({ ...options.home, provider });
    const workspace = join(home.dir, "workspace");
    await mkdir(workspace);
    const client = new AppServerClient({
      cwd: workspace,
      env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", ...options.env, ...home.env },
    });
    const codex = new OfflineCodex(provider, home, client, workspace);
    try {
      await client.initialize();
    } catch (error) {
      await codex.dispose();
      throw error;
    }
    return codex;
  }

  async startThread(params: Partial<ThreadStartParams> = {}): Promise<string> {
    const { thread } = await this.client.request("thread/start", { cwd: this.workspace, approvalPolicy: "never", ...params });
    return thread.id;
  }

  async runTurn(threadId: string, text: string, params: Partial<TurnStartParams> = {}): Promise<TurnRun> {
    const { turn } = await this.client.request("turn/start", {
      threadId,
      input: [{ type: "text", text, text_elements: [] }],
      ...params,
    });
    const completed = await this.client.waitForNotification("turn/completed", (p) => p.turn.id === turn.id);
    return {
      turn: completed.params.turn,
      notifications: this.client.notifications.filter((notification) => turnIdOf(notification) === turn.id),
    };
  }

  async dispose(): Promise<void> {
    await this.client.close();
    await this.provider.close();
    await this.home.cleanup();
  }
}
