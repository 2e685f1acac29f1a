// The ready-made experimental service: `layerExperimental` gives `CodexClientExperimental`, typed by
// codex's experimental surface (an experimental-only method here) and announcing `experimentalApi`.
import { FakeAppServer } from "@codex-rpc/core/testing";
import type { AccountSessionsResponse } from "@codex-rpc/protocol/experimental";
import { it } from "@effect/vitest";
import { Effect, Layer } from "effect";
import { describe, expect } from "vitest";
import { CodexClientExperimental, layerExperimental, layerSpawnExperimental } from "../src/experimental.js";

describe("CodexClientExperimental", () => {
  it.live("types and sends an experimental-only method, with experimentalApi on; the Layer's scope closes the client", () =>
    Effect.gen(function* () {
      const server = new FakeAppServer();
      server.respond("accountSession/list", () => ({ result: { activeSessionId: null, sessions: [] } }));
      const client = yield* Effect.scoped(
        Effect.gen(function* () {
          const codex = yield* CodexClientExperimental;
          // `accountSession/list` is on the experimental surface only: the stable service would not type it.
          const listed: AccountSessionsResponse = yield* codex.request("accountSession/list", {});
          expect(listed).toEqual({ activeSessionId: null, sessions: [] });
          return codex.client;
        }).pipe(Effect.provide(layerExperimental(Effect.succeed(server.transport)))),
      );
      const initialize = server.received.find((m) => "method" in m && m.method === "initialize") as {
        params: { capabilities?: { experimentalApi?: boolean } };
      };
      expect(initialize.params.capabilities?.experimentalApi).toBe(true);
      expect(client.state).toBe("closed");
    }),
  );

  it.live("layerSpawnExperimental opens the transport in the Layer's scope and closes it with the scope", () =>
    Effect.gen(function* () {
      const server = new FakeAppServer();
      let spawned = 0;
      const layer = layerSpawnExperimental(async () => (spawned++, server.transport), {}, { requestTimeoutMs: 5_000 });
      const state = yield* Effect.scoped(Effect.map(Layer.build(layer), () => "built"));
      expect([state, spawned]).toEqual(["built", 1]);
    }),
  );
});
