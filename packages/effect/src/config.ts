// Where the runtime Layers read their settings from Effect's `Config` (any ConfigProvider: the
// environment by default). The token is a Redacted value: it never prints.
import { Config, type Option, type Redacted } from "effect";

export interface CodexSettings {
  /** The codex binary (`CODEX_PATH`); none: the runtime package's search (`CODEX_BIN`, `@openai/codex`, PATH). */
  readonly codexPath: Option.Option<string>;
  /** A running app-server's WebSocket address (`CODEX_APP_SERVER_URL`). */
  readonly url: Option.Option<URL>;
  /** Its capability token (`CODEX_APP_SERVER_TOKEN`), redacted. */
  readonly token: Option.Option<Redacted.Redacted<string>>;
}

/** The names the settings are read under. */
export const CODEX_CONFIG_KEYS = { codexPath: "CODEX_PATH", url: "CODEX_APP_SERVER_URL", token: "CODEX_APP_SERVER_TOKEN" } as const;

/** The settings, each optional. */
export const codexSettings: Config.Config<CodexSettings> = Config.all({
  codexPath: Config.option(Config.String(CODEX_CONFIG_KEYS.codexPath)),
  url: Config.option(Config.URL(CODEX_CONFIG_KEYS.url)),
  token: Config.option(Config.Redacted(CODEX_CONFIG_KEYS.token)),
});
