import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { checkUpgrade } from "../src/upgrade-gate.js";

const TOKEN = "s3cret-token_value";
const ALLOWED = new Set(["http://localhost:5173"]);

function request(url: string, headers: Record<string, string>): IncomingMessage {
  return { url, headers } as unknown as IncomingMessage;
}

describe("checkUpgrade", () => {
  const good = { origin: "http://localhost:5173", "sec-websocket-protocol": `codex-rpc.v1, codex-rpc.token.${TOKEN}` };

  it("lets a page of an allowed origin with the token through", () => {
    expect(checkUpgrade(request("/", good), ALLOWED, TOKEN)).toBeUndefined();
  });

  it("checks the origin first: 403 even with the right token", () => {
    expect(checkUpgrade(request("/", { ...good, origin: "http://evil.example" }), ALLOWED, TOKEN)?.status).toBe(403);
  });

  it("refuses a token in the URL (400), in a `token` parameter or anywhere in the query or path", () => {
    expect(checkUpgrade(request("/?token=abc", good), ALLOWED, TOKEN)?.status).toBe(400);
    expect(checkUpgrade(request(`/?t=${TOKEN}`, good), ALLOWED, TOKEN)?.status).toBe(400);
    expect(checkUpgrade(request(`/${TOKEN}`, good), ALLOWED, TOKEN)?.status).toBe(400);
    expect(checkUpgrade(request(`/${encodeURIComponent(TOKEN).replace("s", "%73")}`, good), ALLOWED, TOKEN)?.status).toBe(400);
    expect(checkUpgrade(request("/?x=%E0%A4%A", good), ALLOWED, TOKEN)?.status).toBe(400); // malformed escapes: refused, no throw
    expect(checkUpgrade(request("/%E0%A4%A", good), ALLOWED, TOKEN)?.status).toBe(404);
    expect(checkUpgrade(request("//[", good), ALLOWED, TOKEN)?.status).toBe(400); // not even a URL: refused, no throw
  });

  it("refuses a missing or wrong token (401), and other paths (404)", () => {
    expect(checkUpgrade(request("/", { origin: good.origin, "sec-websocket-protocol": "codex-rpc.v1" }), ALLOWED, TOKEN)?.status).toBe(401);
    expect(checkUpgrade(request("/", { origin: good.origin }), ALLOWED, TOKEN)?.status).toBe(401);
    expect(checkUpgrade(request("/", { ...good, "sec-websocket-protocol": "codex-rpc.token.nope" }), ALLOWED, TOKEN)?.reason).toBe("wrong token");
    expect(checkUpgrade(request("/other", good), ALLOWED, TOKEN)?.status).toBe(404);
  });

  it("never puts the token in a refusal", () => {
    for (const url of ["/?token=x", `/?t=${TOKEN}`, "/other"]) expect(JSON.stringify(checkUpgrade(request(url, good), ALLOWED, TOKEN))).not.toContain(TOKEN);
  });
});
