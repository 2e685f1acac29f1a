// DNS rebinding: a page on a name pointed at 127.0.0.1 reaches a loopback relay as same-origin and
// sends no Origin on a GET, but its Host is its own name. The relay refuses such a Host everywhere.
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { hostAllowed } from "../src/host-check.js";
import { DISCOVERY_PATH, LOGIN_CODE_PATH, type RelayHandle, startRelay } from "../src/index.js";
import { TOKEN_SUBPROTOCOL_PREFIX } from "../src/token.js";

const relays: RelayHandle[] = [];
afterEach(async () => {
  for (const relay of relays.splice(0)) await relay.close();
});

/** One HTTP request with the given Host header; the status it got (101 for an upgrade). */
function statusFor(port: number, host: string, options: { path?: string; method?: string; headers?: Record<string, string> } = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: options.path ?? "/", method: options.method ?? "GET", headers: { host, ...options.headers } });
    req.on("response", (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    req.on("upgrade", (_response, socket) => {
      socket.destroy();
      resolve(101);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the Host check of a loopback relay", () => {
  it("takes loopback names in any spelling, with or without a port, and refuses other names", () => {
    for (const host of ["127.0.0.1:4510", "localhost", "LOCALHOST:4510", "localhost.:4510", "[::1]:4510", "127.0.0.2"])
      expect(hostAllowed(host, true), host).toBe(true);
    for (const host of ["evil.example:4510", "evil.example", "127.0.0.1.evil.example", "localhost.evil.example:4510", "[::2]:4510", ""])
      expect(hostAllowed(host, true), host).toBe(false);
    expect(hostAllowed(undefined, true)).toBe(true);
    expect(hostAllowed("evil.example", false)).toBe(true);
  });

  it("answers a rebound name 403 on the discovery document, the console, the code exchange and the upgrade, and nothing reaches codex", async () => {
    const relay = await startRelay({ upstream: { transport: new FakeAppServer().transport } });
    relays.push(relay);
    const rebound = `evil.example:${relay.port}`;
    const upgrade = {
      connection: "Upgrade",
      upgrade: "websocket",
      "sec-websocket-version": "13",
      "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
      "sec-websocket-protocol": `${TOKEN_SUBPROTOCOL_PREFIX}${relay.token}`,
    };
    const sentBefore = relay.upstreamMessageCount; // the relay's own handshake
    expect(await statusFor(relay.port, rebound, { path: DISCOVERY_PATH })).toBe(403);
    expect(await statusFor(relay.port, rebound, { path: "/index.html" })).toBe(403);
    expect(await statusFor(relay.port, rebound, { path: LOGIN_CODE_PATH, method: "POST" })).toBe(403);
    expect(await statusFor(relay.port, rebound, { headers: upgrade })).toBe(403);
    expect(relay.upstreamMessageCount).toBe(sentBefore);
    // The same requests addressed to the relay's own names go on as before.
    expect(await statusFor(relay.port, `localhost:${relay.port}`, { path: DISCOVERY_PATH })).toBe(200);
    expect(await statusFor(relay.port, `127.0.0.1:${relay.port}`, { headers: upgrade })).toBe(101);
  });
});
