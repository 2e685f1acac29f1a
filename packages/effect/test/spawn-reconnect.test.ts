// `reconnect` with a spawning Layer (layerNode / layerDeno / layerBun, layerSpawnExperimental): a
// server that dies is started again, as @codex-rpc/stdio's connectCodex does. Before, the Layer gave
// core one transport with `reconnect` set, and core's connect threw a TypeError: a defect.
import type { Transport } from "@codex-rpc/core";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { it } from "@effect/vitest";
import { Effect } from "effect";
import { describe, expect } from "vitest";
import { CodexClient, layerSpawn } from "../src/index.js";
import { CodexClientExperimental, layerSpawnExperimental } from "../src/experimental.js";

/** A spawn function that starts a new FakeAppServer each time, counting the closes of its transports. */
function fakeSpawns() {
  const servers: FakeAppServer[] = [];
  const closed: number[] = [];
  const spawn = async (): Promise<Transport> => {
    const server = new FakeAppServer();
    const index = servers.push(server) - 1;
    const { transport } = server;
    return {
      messages$: transport.messages$,
      diagnostics$: transport.diagnostics$,
      send: (message) => transport.send(message),
      close: () => {
        closed.push(index);
        return transport.close();
      },
      closed: transport.closed,
    };
  };
  return { spawn, servers, closed };
}

const untilReconnected = (client: { readonly state: string }) =>
  Effect.gen(function* () {
    for (let i = 0; i < 200 && client.state !== "open"; i++) yield* Effect.sleep("10 millis");
  });

describe("a spawning Layer with reconnect", () => {
  it.live("starts the server again when it dies; closing the Layer closes the running one", () => {
    const { spawn, servers, closed } = fakeSpawns();
    return Effect.gen(function* () {
      yield* Effect.scoped(
        Effect.gen(function* () {
          const codex = yield* CodexClient;
          yield* codex.startThread();
          servers[0]?.crash({ exitCode: 1 });
          yield* Effect.sleep("20 millis");
          yield* untilReconnected(codex.client);
          yield* codex.startThread();
        }).pipe(Effect.provide(layerSpawn(spawn, {}, { reconnect: { initialDelayMs: 1 } }))),
      );
      expect(servers).toHaveLength(2);
      expect(closed).toContain(1);
    });
  });

  it.live("layerSpawnExperimental too", () => {
    const { spawn, servers, closed } = fakeSpawns();
    return Effect.gen(function* () {
      yield* Effect.scoped(
        Effect.gen(function* () {
          const codex = yield* CodexClientExperimental;
          yield* codex.startThread();
        }).pipe(Effect.provide(layerSpawnExperimental(spawn, {}, { reconnect: true }))),
      );
      expect(servers).toHaveLength(1);
      expect(closed).toEqual([0]);
    });
  });
});
