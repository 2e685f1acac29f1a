// createCodexHome: the files and environment it makes, and (against the real codex app-server)
// that codex reads the config as meant and sends no credentials from the developer's shell.

import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { codexConfigToml } from "../src/codex-config-toml.js";
import { createCodexHome, type CodexHome } from "../src/codex-home.js";
import { reply } from "../src/reply.js";
import { OfflineCodex } from "@codex-rpc/test-support/offline-codex.js";

describe("createCodexHome", () => {
  let home: CodexHome | undefined;
  afterEach(async () => {
    await home?.cleanup();
    home = undefined;
  });

  it("writes config.toml into a fresh temporary directory and returns the env pointing at it", async () => {
    home = await createCodexHome({ provider: { url: "http://127.0.0.1:9/v1" } });
    expect(dirname(home.dir)).toBe(tmpdir());
    expect(home.env).toEqual({ CODEX_HOME: home.dir, HOME: home.dir, NO_COLOR: "1" });
    const toml = await readFile(home.configPath, "utf8");
    expect(toml).toBe(codexConfigToml({ baseUrl: "http://127.0.0.1:9/v1", model: "mock-model" }));
    for (const line of [
      'model = "mock-model"',
      'model_provider = "mock"',
      "[model_providers.mock]",
      'base_url = "http://127.0.0.1:9/v1"',
      'wire_api = "responses"',
      "requires_openai_auth = false",
      "request_max_retries = 0",
      "stream_max_retries = 0",
      "supports_websockets = false",
      "plugins = false",
    ]) {
      expect(toml.split("\n")).toContain(line);
    }
  });

  it("cleanup removes the directory", async () => {
    const made = await createCodexHome({ provider: { url: "http://127.0.0.1:9/v1" } });
    expect(existsSync(made.configPath)).toBe(true);
    await made.cleanup();
    expect(existsSync(made.dir)).toBe(false);
  });

  it("puts extraConfig before the kit's tables and merges features over the defaults", () => {
    const toml = codexConfigToml({
      baseUrl: "http://127.0.0.1:9/v1",
      model: "m",
      extraConfig: 'model_reasoning_effort = "high"\n',
      features: { default_mode_request_user_input: true, "odd key": false },
    });
    expect(toml.indexOf('model_reasoning_effort = "high"')).toBeLessThan(toml.indexOf("[model_providers.mock]"));
    expect(toml).toContain('[features]\nplugins = false\ndefault_mode_request_user_input = true\n"odd key" = false\n');
  });

  it("writes mcpServers as [mcp_servers.<name>] tables after the kit's", () => {
    const toml = codexConfigToml({
      baseUrl: "http://127.0.0.1:9/v1",
      model: "m",
      mcpServers: {
        echo: { command: "node", args: ["/srv/echo.mjs", 'a "quoted" arg'], env: { LOG: "/tmp/x" }, cwd: "/srv" },
        "odd.name": { command: "true" },
      },
    });
    expect(toml.indexOf("[mcp_servers.echo]")).toBeGreaterThan(toml.indexOf("[features]"));
    expect(toml).toContain('[mcp_servers.echo]\ncommand = "node"\nargs = ["/srv/echo.mjs", "a \\"quoted\\" arg"]\ncwd = "/srv"\nenv = { LOG = "/tmp/x" }\n');
    expect(toml).toContain('[mcp_servers."odd.name"]\ncommand = "true"\n');
  });
});

describe("createCodexHome with the real codex app-server", () => {
  let codex: OfflineCodex | undefined;
  afterEach(async () => {
    await codex?.dispose();
    codex = undefined;
  });

  it("codex reads the kit's settings and extraConfig's top-level keys and tables", async () => {
    codex = await OfflineCodex.start({
      home: { model: "gpt-mock-5", extraConfig: 'model_reasoning_effort = "high"\n\n[shell_environment_policy]\ninherit = "core"\n' },
    });
    const { config } = await codex.client.request("config/read", { cwd: codex.workspace, includeLayers: false });
    expect(config).toEqual(expect.objectContaining({ model: "gpt-mock-5", model_provider: "mock", model_reasoning_effort: "high" }));
    expect(config.analytics).toEqual(expect.objectContaining({ enabled: false }));
  });

  it("needs no login, and API keys in the environment do not reach the mock provider", async () => {
    codex = await OfflineCodex.start({
      script: [reply.text("ok")],
      env: { OPENAI_API_KEY: "sk-must-not-leak", CODEX_API_KEY: "sk-must-not-leak-either" },
    });
    const thread = await codex.startThread();
    const { turn } = await codex.runTurn(thread, "hi");
    expect(turn.status).toBe("completed");
    const [request] = codex.provider.requests;
    expect(request?.headers.authorization).toBeUndefined();
    expect(JSON.stringify(request?.headers)).not.toContain("sk-must-not-leak");
  });
});
