// Settings from Effect's Config: the token stays Redacted, each setting is optional.
import { it } from "@effect/vitest";
import { ConfigProvider, Effect, Layer, Option, Redacted } from "effect";
import { describe, expect } from "vitest";
import { CODEX_CONFIG_KEYS, codexSettings } from "../src/index.js";
import { layerWebSocketConfig } from "../src/websocket.js";

const provider = (env: Record<string, string>) => ConfigProvider.layer(ConfigProvider.fromEnvRecord(env));

describe("codexSettings", () => {
  it.effect("reads the codex path, the URL and the token (redacted: it never prints)", () =>
    Effect.gen(function* () {
      const settings = yield* codexSettings;
      expect(Option.getOrThrow(settings.codexPath)).toBe("/opt/codex");
      expect(Option.getOrThrow(settings.url).href).toBe("ws://127.0.0.1:4500/");
      const token = Option.getOrThrow(settings.token);
      expect(Redacted.value(token)).toBe("s3cret-token");
      expect(String(token)).not.toContain("s3cret");
      expect(JSON.stringify(settings)).not.toContain("s3cret");
    }).pipe(
      Effect.provide(
        provider({ [CODEX_CONFIG_KEYS.codexPath]: "/opt/codex", [CODEX_CONFIG_KEYS.url]: "ws://127.0.0.1:4500", [CODEX_CONFIG_KEYS.token]: "s3cret-token" }),
      ),
    ),
  );

  it.effect("every setting is optional", () =>
    Effect.gen(function* () {
      const settings = yield* codexSettings;
      expect([Option.isNone(settings.codexPath), Option.isNone(settings.url), Option.isNone(settings.token)]).toEqual([true, true, true]);
    }).pipe(Effect.provide(provider({}))),
  );

  it.effect("layerWebSocketConfig without a URL fails with Effect's ConfigError, before connecting", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(Layer.build(layerWebSocketConfig()));
      expect(error._tag).toBe("ConfigError");
    }).pipe(Effect.provide(provider({}))),
  );
});
