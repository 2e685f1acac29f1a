import type { WebSocketLike } from "./websocket-like.js";

/**
 * Drops the connection at once, with no close handshake, and says whether it could. `ws` and Bun
 * have `terminate()`. The others wait for the peer's close frame forever, which keeps the program
 * alive, so this reaches into them where it can (each step guarded: these are not public APIs):
 * Node 22's WebSocket (undici 6) keeps its TCP socket under a `response` symbol; Deno's keeps a
 * resource id under `[[rid]]`, which `Deno[Deno.internal].core.close` closes. Browsers need none.
 */
export function terminateSocket(socket: WebSocketLike): boolean {
  try {
    if (typeof socket.terminate === "function") {
      socket.terminate();
      return true;
    }
    const slots = socket as unknown as Record<symbol, unknown>;
    const symbol = (description: string) => Object.getOwnPropertySymbols(socket).find((candidate) => candidate.description === description);

    const response = symbol("response");
    const tcp = response === undefined ? undefined : (slots[response] as { socket?: { destroy?: unknown } } | undefined)?.socket;
    if (typeof tcp?.destroy === "function") {
      (tcp.destroy as () => void).call(tcp);
      return true;
    }

    const rid = symbol("[[rid]]");
    const deno = (globalThis as { Deno?: { internal?: symbol } & Record<symbol, { core?: { close?: unknown } } | undefined> }).Deno;
    const close = deno?.internal === undefined ? undefined : deno[deno.internal]?.core?.close;
    if (rid !== undefined && typeof slots[rid] === "number" && typeof close === "function") {
      (close as (rid: number) => void)(slots[rid] as number);
      return true;
    }
  } catch {
    // Best effort: the runtime's internals are not ours.
  }
  return false;
}
