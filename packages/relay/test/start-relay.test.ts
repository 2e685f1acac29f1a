// startRelay over the in-memory FakeAppServer: the discovery document, the relay's own origins,
// logs without the token, a page connecting with the token subprotocol.
import { request } from "node:http";
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { DISCOVERY_PATH, RELAY_SUBPROTOCOL, type RelayHandle, startRelay } from "../src/index.js";
import { call, tryUpgrade } from "./support/relay-clients.js";

const relays: RelayHandle[] = [];
afterEach(async () => {
  for (const relay of relays.splice(0)) await relay.close();
});

async function relayOverFake(log?: (line: string) => void): Promise<RelayHandle> {
  const relay = await startRelay({
    upstream: { transport: new FakeAppServer().transport },
    allowedOrigins: ["http://localhost:5173"],
    ...(log ? { log } : {}),
  });
  relays.push(relay);
  return relay;
}

describe("startRelay", () => {
  it("serves a discovery document with the WebSocket URL and never the token; foreign origins get 403", async () => {
    const relay = await relayOverFake();
    const discovery = `http://127.0.0.1:${relay.port}${DISCOVERY_PATH}`;
    const response = await fetch(discovery, { headers: { origin: "http://localhost:5173" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ ws: relay.url, subprotocol: RELAY_SUBPROTOCOL, version: "0.1.0" });
    expect(text).not.toContain(relay.token);
    expect((await fetch(discovery, { headers: { origin: "http://evil.example" } })).status).toBe(403);
    expect((await fetch(`http://127.0.0.1:${relay.port}/other`)).status).toBe(404);
  });

  it("accepts a page with the token subprotocol, selects codex-rpc.v1, and allows its own origin", async () => {
    const relay = await relayOverFake();
    const outcome = await tryUpgrade(relay.url, { token: relay.token, origin: `http://localhost:${relay.port}` });
    if (!("socket" in outcome)) throw new Error(`refused: ${outcome.status}`);
    expect(outcome.socket.protocol).toBe(RELAY_SUBPROTOCOL);
    expect((await call(outcome.socket, 1, "initialize", {})).result).toHaveProperty("userAgent");
    outcome.socket.close();
  });

  it("survives request paths that are not URLs and malformed escapes (400, still serving)", async () => {
    const relay = await relayOverFake();
    for (const path of ["//[", "/?x=%E0%A4%A"]) {
      const status = await new Promise<number>((resolve, reject) => {
        const req = request({
          host: "127.0.0.1",
          port: relay.port,
          path,
          headers: { connection: "Upgrade", upgrade: "websocket", "sec-websocket-version": "13", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==" },
        });
        req.on("response", (response) => resolve(response.statusCode ?? 0));
        req.on("upgrade", () => resolve(101));
        req.on("error", reject);
        req.end();
      });
      expect(status, path).toBe(400);
      expect((await fetch(`http://127.0.0.1:${relay.port}//[`)).status).toBe(404);
    }
    const outcome = await tryUpgrade(relay.url, { token: relay.token });
    expect("socket" in outcome).toBe(true);
    if ("socket" in outcome) outcome.socket.close();
  });

  it("logs refusals with the token redacted", async () => {
    const lines: string[] = [];
    const relay = await relayOverFake((line) => lines.push(line));
    await tryUpgrade(`${relay.url}?token=${relay.token}`, { token: relay.token });
    await tryUpgrade(relay.url, { token: "wrong" });
    expect(lines.join("\n")).toContain("400");
    expect(lines.join("\n")).toContain("wrong token");
    expect(lines.join("\n")).not.toContain(relay.token);
  });

  it("each refusal's log line reads as its answer does: the secret redactor eats no word of it (review 7, F9e)", async () => {
    const lines: string[] = [];
    const relay = await relayOverFake((line) => lines.push(line));
    const refusals = [
      await tryUpgrade(relay.url, {}),
      await tryUpgrade(relay.url, { token: "wrong" }),
      await tryUpgrade(`${relay.url}?token=${relay.token}`, { token: relay.token }),
      await tryUpgrade(`${relay.url}?x=1`, { token: relay.token }),
      await tryUpgrade(`${relay.url}other`, { token: relay.token }),
      await tryUpgrade(relay.url, { token: relay.token, origin: "http://evil.example" }),
    ];
    const logged = lines.filter((line) => line.startsWith("refused an upgrade"));
    expect(logged).toHaveLength(refusals.length);
    refusals.forEach((outcome, index) => {
      if (!("status" in outcome)) throw new Error("upgraded");
      expect(logged[index]).toMatch(new RegExp(`: ${outcome.status} ${outcome.body.trim().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
    });
    expect(logged.join("\n")).not.toContain("[REDACTED]");
    expect(logged[0]).toMatch(/: 401 no token \(present it as the WebSocket subprotocol codex-rpc\.token\.<token>\)$/);
  });

  it("a port already in use: rejects with EADDRINUSE and closes the app-server it opened (review 6 F5)", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", () => resolve()));
    const port = (blocker.address() as { port: number }).port;
    const server = new FakeAppServer();
    let transportClosed = false;
    void server.transport.closed.then(() => (transportClosed = true));
    try {
      await expect(startRelay({ port, upstream: { transport: server.transport } })).rejects.toThrow(/EADDRINUSE/);
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(transportClosed).toBe(true);
    } finally {
      blocker.close();
    }
  });
});
