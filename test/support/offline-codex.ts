// One real `codex app-server`, spawned by @codex-rpc/stdio and driven by the product client
// (@codex-rpc/core, experimental API on), wired to a fresh MockResponsesProvider and CODEX_HOME;
// plus the two steps every test repeats: start a thread, run a turn to its end.

import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { firstValueFrom, tap, toArray } from "rxjs";
import {
  CodexClient,
  type CodexClientOptions,
  type CompletedTurn,
  type JsonRpcRequest,
  type CodexThread,
  type Transport,
  type TurnOptions,
} from "@codex-rpc/core";
import type { ServerNotification, ThreadStartParams } from "@codex-rpc/protocol";
import type * as Experimental from "@codex-rpc/protocol/experimental";
import { spawnCodexAppServer } from "@codex-rpc/stdio";
import { pinnedCodexBinary } from "./pinned-codex.js";
import { createCodexHome, MockResponsesProvider, type CodexHome, type CodexHomeOptions, type ScriptedReply } from "@codex-rpc/testing";

export interface TurnRun extends CompletedTurn {
  /** Every notification of this turn (`turn.events$`), in arrival order. */
  readonly notifications: readonly ServerNotification[];
}

/** `turn/start` params beyond the input; experimental ones (collaborationMode) included. */
export type TurnParams = Omit<Experimental.TurnStartParams, "threadId" | "input">;

export interface OfflineCodexOptions {
  readonly script?: readonly ScriptedReply[];
  readonly home?: Omit<CodexHomeOptions, "provider">;
  /** More environment for the app-server (the home's variables win). */
  readonly env?: Readonly<Record<string, string>>;
  /** More arguments for `codex app-server` (e.g. `["-c", 'model_provider="other"']`). */
  readonly args?: readonly string[];
  /** More options for the client (approvals, elicitations, userInput, …). */
  readonly client?: CodexClientOptions;
}

export class OfflineCodex {
  /** Every server→client request the client received (whoever answered it), in arrival order. */
  readonly serverRequests: JsonRpcRequest[] = [];
  /** Every client→server request the client sent, in order. */
  readonly clientRequests: JsonRpcRequest[] = [];

  private constructor(
    readonly provider: MockResponsesProvider,
    readonly home: CodexHome,
    /** The thread cwd: a `workspace` folder inside the temporary CODEX_HOME. */
    readonly workspace: string,
  ) {}

  #client: CodexClient | undefined;

  get client(): CodexClient {
    if (this.#client === undefined) throw new Error("OfflineCodex is not connected");
    return this.#client;
  }

  static async start(options: OfflineCodexOptions = {}): Promise<OfflineCodex> {
    const provider = await MockResponsesProvider.start({ script: options.script ?? [] });
    const home = await createCodexHome({ ...options.home, provider });
    const workspace = join(home.dir, "workspace");
    const codex = new OfflineCodex(provider, home, workspace);
    try {
      await mkdir(workspace);
      const transport = await spawnCodexAppServer({
        codexPath: pinnedCodexBinary(),
        cwd: workspace,
        ...(options.args ? { args: [...options.args] } : {}),
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...options.env, ...home.env },
      });
      codex.#client = await CodexClient.connect(codex.#recording(transport), {
        clientInfo: { name: "codex_rpc_testing", title: "codex-rpc testing", version: "0.0.0" },
        // For dynamicTools on thread/start and collaborationMode on turn/start.
        experimentalApi: true,
        ...options.client,
      });
    } catch (error) {
      await codex.dispose();
      throw error;
    }
    return codex;
  }

  /** Starts a thread in the workspace, approvalPolicy "never" unless said otherwise. */
  startThread(params: Experimental.ThreadStartParams = {}): Promise<CodexThread> {
    // Core is typed by the stable protocol; experimental params (dynamicTools) pass through as is.
    return this.client.startThread({ cwd: this.workspace, approvalPolicy: "never", ...params } as ThreadStartParams);
  }

  /** Runs one turn to its end and collects its notifications. */
  async runTurn(thread: CodexThread, text: string, params: TurnParams = {}): Promise<TurnRun> {
    const turn = thread.run(text, { params: params as TurnOptions["params"] });
    // Subscribed in the tick run() returns: no event of the turn is missed.
    const notifications = firstValueFrom(turn.events$.pipe(toArray()));
    const completed = await turn.completed;
    return { ...completed, notifications: await notifications };
  }

  async dispose(): Promise<void> {
    await this.#client?.close();
    await this.provider.close();
    await this.home.cleanup();
  }

  /** The transport, with every server request it delivers recorded in `serverRequests`, and every request sent in `clientRequests`. */
  #recording(transport: Transport): Transport {
    return {
      messages$: transport.messages$.pipe(
        tap((message) => {
          if ("method" in message && "id" in message) this.serverRequests.push(message);
        }),
      ),
      diagnostics$: transport.diagnostics$,
      send: (message) => {
        if ("method" in message && "id" in message) this.clientRequests.push(message);
        return transport.send(message);
      },
      close: () => transport.close(),
      closed: transport.closed,
    };
  }
}
