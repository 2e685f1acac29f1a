// A throwaway CODEX_HOME whose config.toml points codex at a loopback model provider, and the
// environment that makes codex use it and nothing of the developer's own ~/.codex.

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { codexConfigToml, type McpServerConfig } from "./codex-config-toml.js";

/** Anything with the provider's base URL; a MockResponsesProvider is one. */
export interface ModelProviderEndpoint {
  /** Base URL ending in `/v1`, e.g. `http://127.0.0.1:1234/v1`. */
  readonly url: string;
}

export interface CodexHomeOptions {
  readonly provider: ModelProviderEndpoint;
  /** Default `mock-model`; codex sends it as the request's `model`. */
  readonly model?: string;
  /** `[features]` entries, merged over the default `plugins = false`. */
  readonly features?: Readonly<Record<string, boolean>>;
  /** More TOML, placed before the kit's tables (so top-level keys work). Must not define `[features]`, `[analytics]` or `[model_providers.mock]`. */
  readonly extraConfig?: string;
  /**
   * Stdio MCP servers codex starts for each thread, by name (`[mcp_servers.<name>]`); the model calls
   * their tools with `reply.mcpToolCall(name, tool, args)`.
   */
  readonly mcpServers?: Readonly<Record<string, McpServerConfig>>;
  /** Where to create the directory; default the OS temp dir. */
  readonly parentDir?: string;
}

export interface CodexHome {
  /** The CODEX_HOME directory (also HOME). */
  readonly dir: string;
  readonly configPath: string;
  /**
   * `CODEX_HOME`, `HOME` (the same directory, so nothing under the real home leaks in) and
   * `NO_COLOR=1`. Merge it over the child's environment, e.g. `{ PATH: process.env.PATH, ...env }`.
   */
  readonly env: Readonly<Record<string, string>>;
  /** Deletes the directory and everything codex wrote there (sessions, logs, state). */
  cleanup(): Promise<void>;
}

export async function createCodexHome(options: CodexHomeOptions): Promise<CodexHome> {
  const dir = await mkdtemp(join(options.parentDir ?? tmpdir(), "codex-rpc-home-"));
  const configPath = join(dir, "config.toml");
  await writeFile(
    configPath,
    codexConfigToml({
      baseUrl: options.provider.url,
      model: options.model ?? "mock-model",
      ...(options.features === undefined ? {} : { features: options.features }),
      ...(options.extraConfig === undefined ? {} : { extraConfig: options.extraConfig }),
      ...(options.mcpServers === undefined ? {} : { mcpServers: options.mcpServers }),
    }),
  );
  return {
    dir,
    configPath,
    env: { CODEX_HOME: dir, HOME: dir, NO_COLOR: "1" },
    cleanup: () => rm(dir, { recursive: true, force: true, maxRetries: 3 }),
  };
}
