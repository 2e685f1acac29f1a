// A transport that opened is closed with the Layer's scope, even when the Layer was interrupted
// while it opened (no orphan process); layerSpawn passes the spawn options through.
import type { Transport } from "@codex-rpc/core";
import type { SpawnCodexAppServerOptions } from "@codex-rpc/core/process";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { it } from "@effect/vitest";
import { Context, Effect, Fiber, Layer } from "effect";
import { describe, expect } from "vitest";
import { CodexClient, layerSpawn } from "../src/index.js";

/** A spawn function that answers after `delayMs` with a FakeAppServer's transport, counting closes. */
function slowSpawn(delayMs: number) {
  const seen: { options?: SpawnCodexAppServerOptions; closes: number } = { closes: 0 };
  const spawn = (options: SpawnCodexAppServerOptions): Promise<Transport> => {
    seen.options = options;
    const { transport } = new FakeAppServer();
    const counted: Transport = {
      messages$: transport.messages$,
      diagnostics$: transport.diagnostics$,
      send: (message) => transport.send(message),
      close: () => {
        seen.closes++;
        return transport.close();
      },
      closed: transport.closed,
    };
    return new Promise((resolve) => setTimeout(() => resolve(counted), delayMs));
  };
  return { spawn, seen };
}

describe("layerSpawn", () => {
  it.live("interrupted while the server starts: the transport that arrives is closed", () =>
    Effect.gen(function* () {
      const { spawn, seen } = slowSpawn(40);
      const building = yield* Effect.forkChild(Effect.scoped(Layer.build(layerSpawn(spawn, { cwd: "/tmp" }))));
      yield* Effect.sleep("10 millis");
      yield* Fiber.interrupt(building);
      expect(seen.closes).toBe(1);
      expect(seen.options?.cwd).toBe("/tmp");
    }),
  );

  it.live("built and released: the client closes the transport (once more from the scope is a no-op)", () =>
    Effect.gen(function* () {
      const { spawn, seen } = slowSpawn(0);
      const client = yield* Effect.scoped(Effect.map(Layer.build(layerSpawn(spawn)), (context) => Context.get(context, CodexClient).client));
      expect(client.state).toBe("closed");
      expect(seen.closes).toBeGreaterThanOrEqual(1);
    }),
  );
});
