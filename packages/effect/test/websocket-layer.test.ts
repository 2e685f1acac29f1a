// layerWebSocket while the socket is still opening: interruption (Effect.timeout) reaches the
// transport's own AbortSignal instead of waiting for its connect timeout.
import { createServer, type Socket } from "node:net";
import { it } from "@effect/vitest";
import { Effect, Exit, Layer } from "effect";
import { describe, expect } from "vitest";
import { layerWebSocket } from "../src/websocket.js";

describe("layerWebSocket", () => {
  it.live(
    "a server that accepts the TCP connection but never answers the upgrade: Effect.timeout ends the Layer's build",
    () =>
      Effect.gen(function* () {
        const sockets: Socket[] = [];
        // Read what the client sends (its upgrade request) so the end of the connection is seen.
        const server = createServer((socket) => sockets.push(socket.resume()));
        yield* Effect.addFinalizer(() =>
          Effect.sync(() => {
            for (const socket of sockets) socket.destroy();
            server.close();
          }),
        );
        yield* Effect.promise(() => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve())));
        const { port } = server.address() as { port: number };
        // The transport's connect timeout (60 s here) is what ended it before: longer than this test may run.
        const build = Layer.build(layerWebSocket({ url: `ws://127.0.0.1:${port}`, connectTimeoutMs: 60_000 }));
        const exit = yield* Effect.exit(Effect.scoped(build).pipe(Effect.timeout("300 millis")));
        expect(Exit.isFailure(exit)).toBe(true);
        expect(sockets.length).toBe(1);
        // The aborted connect let go of its socket.
        // The aborted connect let go of its socket.
        yield* Effect.promise(() => new Promise((resolve) => (sockets[0]!.destroyed ? resolve(undefined) : sockets[0]!.once("close", resolve))));
      }).pipe(Effect.scoped),
    10_000,
  );
});
