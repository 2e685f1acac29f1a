// Everything one path's run needs on the Node side: per case a mock model and a CODEX_HOME that
// points at it (so a failing case cannot leave replies for the next), a workspace for the threads,
// and the servers started for it; `dispose` stops and deletes all of it.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MockResponsesProvider, createCodexHome, type CodexHome } from "@codex-rpc/testing";
import { CONFORMANCE_CASES } from "./case-list.mjs";
import type { ConformanceConfig } from "./conformance-config.mjs";
import type { ListeningAppServer } from "./listening-app-server.js";
import { modelScriptFor } from "./model-scripts.js";

export interface CaseScope {
  readonly provider: MockResponsesProvider;
  readonly home: CodexHome;
  /** The server's whole environment. */
  readonly env: Readonly<Record<string, string>>;
}

export class PathFixture {
  /** Servers started through the control endpoint; stopped by `dispose`. */
  readonly listeningServers: ListeningAppServer[] = [];

  private constructor(
    readonly codexPath: string,
    readonly workspace: string,
    readonly scopes: ReadonlyMap<string, CaseScope>,
  ) {}

  static async create(codexPath: string): Promise<PathFixture> {
    const workspace = await mkdtemp(join(tmpdir(), "codex-rpc-conformance-"));
    const scopes = new Map<string, CaseScope>();
    const fixture = new PathFixture(codexPath, workspace, scopes);
    try {
      for (const { id } of CONFORMANCE_CASES) {
        const provider = await MockResponsesProvider.start({ script: modelScriptFor(id) });
        const home = await createCodexHome({ provider }).catch(async (error: unknown) => {
          await provider.close();
          throw error;
        });
        scopes.set(id, { provider, home, env: { PATH: process.env.PATH ?? "", ...home.env } });
      }
      return fixture;
    } catch (error) {
      await fixture.dispose();
      throw error;
    }
  }

  scope(id: string): CaseScope {
    const scope = this.scopes.get(id);
    if (!scope) throw new Error(`no such case scope: ${id}`);
    return scope;
  }

  /** What the case script is told (as JSON in CONFORMANCE_CONFIG); `client` says which protocol it uses and which versions to expect. */
  config(controlUrl: string, client: Pick<ConformanceConfig, "versions" | "protocolModuleUrl">): ConformanceConfig {
    return {
      controlUrl,
      codexPath: this.codexPath,
      workspace: this.workspace,
      scopes: Object.fromEntries([...this.scopes].map(([id, scope]) => [id, { env: { ...scope.env } }])),
      ...(client.protocolModuleUrl === undefined ? {} : { protocolModuleUrl: client.protocolModuleUrl }),
      versions: client.versions,
    };
  }

  async dispose(): Promise<void> {
    await Promise.all(this.listeningServers.splice(0).map((server) => server.stop()));
    for (const scope of this.scopes.values()) {
      await scope.provider.close();
      await scope.home.cleanup();
    }
    await rm(this.workspace, { recursive: true, force: true, maxRetries: 3 });
  }
}
