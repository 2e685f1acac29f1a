// Another protocol than the service's default one: connectScoped + makeCodexService type
// experimental-only methods (here `accountSession/list`, which the stable surface lacks).
import { FakeAppServer } from "@codex-rpc/core/testing";
import { protocol as experimental } from "@codex-rpc/protocol/experimental";
import { it } from "@effect/vitest";
import { Effect } from "effect";
import { describe, expect } from "vitest";
import { connectScoped, makeCodexService } from "../src/index.js";

describe("a service of the experimental protocol", () => {
  it.live("types and sends an experimental-only method; the scope closes the client", () =>
    Effect.gen(function* () {
      const server = new FakeAppServer();
      server.respond("accountSession/list", () => ({ result: { data: [] } }));
      const client = yield* Effect.scoped(
        Effect.gen(function* () {
          const codex = makeCodexService(yield* connectScoped(Effect.succeed(server.transport), { protocol: experimental }));
          const listed = yield* codex.request("accountSession/list", {});
          expect(listed).toEqual({ data: [] });
          const initialize = server.received.find((m) => "method" in m && m.method === "initialize") as {
            params: { capabilities?: { experimentalApi?: boolean } };
          };
          expect(initialize.params.capabilities?.experimentalApi).toBe(true);
          return codex.client;
        }),
      );
      expect(client.state).toBe("closed");
    }),
  );
});
