// The config.toml that makes codex 0.169.0 talk to a loopback model provider and nothing else.

export interface CodexConfigOptions {
  /** The provider's base URL, ending in `/v1` (codex appends `/responses`). */
  readonly baseUrl: string;
  readonly model: string;
  /**
   * Entries of the `[features]` table, merged over the kit's defaults (`plugins = false`).
   * Use this rather than a `[features]` table in `extraConfig`: TOML forbids defining it twice.
   */
  readonly features?: Readonly<Record<string, boolean>>;
  /** TOML placed after the top-level keys and before the kit's tables: top-level keys and whole tables both work. */
  readonly extraConfig?: string;
  /** `[mcp_servers.<name>]` tables: stdio MCP servers codex starts with the thread. */
  readonly mcpServers?: Readonly<Record<string, McpServerConfig>>;
}

/** One stdio MCP server, as codex's `[mcp_servers.<name>]` table spells it. */
export interface McpServerConfig {
  /** The program, e.g. `"node"` or `process.execPath`. */
  readonly command: string;
  readonly args?: readonly string[];
  /** Variables for the server's environment (codex passes it little of its own). */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** Name of the provider entry in `[model_providers]`. */
export const MOCK_PROVIDER_ID = "mock";

/**
 * Without plugins codex looks nothing up on the network (with them it resolves github.com and
 * chatgpt.com at startup to sync plugin marketplaces); the tools offered to the model are the same.
 */
const DEFAULT_FEATURES: Readonly<Record<string, boolean>> = { plugins: false };

/** JSON string syntax is valid TOML basic-string syntax (same escapes). */
const tomlString = (value: string): string => JSON.stringify(value);

const tomlKey = (key: string): string => (/^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key));

export function codexConfigToml(options: CodexConfigOptions): string {
  const features = { ...DEFAULT_FEATURES, ...options.features };
  const lines = [
    "# Written by @codex-rpc/testing: codex talks to a loopback mock model provider only.",
    `model = ${tomlString(options.model)}`,
    `model_provider = ${tomlString(MOCK_PROVIDER_ID)}`,
    "",
  ];
  if (options.extraConfig !== undefined && options.extraConfig.trim() !== "") {
    lines.push(options.extraConfig.trimEnd(), "");
  }
  lines.push(
    `[model_providers.${MOCK_PROVIDER_ID}]`,
    `name = ${tomlString(MOCK_PROVIDER_ID)}`,
    `base_url = ${tomlString(options.baseUrl)}`,
    'wire_api = "responses"',
    // No env_key and no OpenAI auth: codex sends no credentials and needs no login.
    "requires_openai_auth = false",
    // A scripted error must end the turn, not be retried into the next script entry.
    "request_max_retries = 0",
    "stream_max_retries = 0",
    // Otherwise codex first tries a Responses WebSocket.
    "supports_websockets = false",
    "",
    // Keeps codex from reporting test runs anywhere.
    "[analytics]",
    "enabled = false",
    "",
    "[features]",
    ...Object.entries(features).map(([key, enabled]) => `${tomlKey(key)} = ${enabled ? "true" : "false"}`),
    "",
  );
  for (const [name, server] of Object.entries(options.mcpServers ?? {})) {
    lines.push(`[mcp_servers.${tomlKey(name)}]`, `command = ${tomlString(server.command)}`);
    if (server.args) lines.push(`args = [${server.args.map(tomlString).join(", ")}]`);
    if (server.cwd !== undefined) lines.push(`cwd = ${tomlString(server.cwd)}`);
    if (server.env)
      lines.push(
        `env = { ${Object.entries(server.env)
          .map(([key, value]) => `${tomlKey(key)} = ${tomlString(value)}`)
          .join(", ")} }`,
      );
    lines.push("");
  }
  return lines.join("\n");
}
