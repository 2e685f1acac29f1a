// The relay serving the web console's files (option `consoleDir`, the CLI's --open / --console):
// its own files only, with a strict Content-Security-Policy; nothing outside the folder; a foreign
// origin still gets 403; and a token of one's own (option `token`) must be as strong as the relay's.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { type RelayHandle, startRelay } from "../src/index.js";
import { tryUpgrade } from "./support/relay-clients.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function relayServingConsole(): Promise<{ relay: RelayHandle; base: string }> {
  const root = await mkdtemp(join(tmpdir(), "codex-rpc-console-"));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const dir = join(root, "console");
  await mkdir(join(dir, "chunks"), { recursive: true });
  await writeFile(join(dir, "index.html"), "<!doctype html><title>console</title>");
  await writeFile(join(dir, "app.js"), "console.log('app')");
  await writeFile(join(dir, "chunks", "lazy.js"), "export {}");
  await writeFile(join(root, "secret.js"), "the secret");
  const relay = await startRelay({ upstream: { transport: new FakeAppServer().transport }, consoleDir: dir });
  cleanups.push(() => relay.close());
  return { relay, base: `http://127.0.0.1:${relay.port}` };
}

/** A GET with this exact path (no URL normalisation on the way), its status and body. */
function rawGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, method: "GET" }, (response) => {
      let body = "";
      response.setEncoding("utf8").on("data", (text: string) => (body += text));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    req.once("error", reject);
    req.end();
  });
}

describe("the relay serving the web console", () => {
  it("serves index.html at / and its scripts, with a Content-Security-Policy that keeps the page to its own origin", async () => {
    const { base } = await relayServingConsole();
    const index = await fetch(`${base}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(index.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(index.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(index.headers.get("referrer-policy")).toBe("no-referrer");
    expect(await index.text()).toContain("<title>console</title>");
    expect((await fetch(`${base}/app.js`)).headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await (await fetch(`${base}/chunks/lazy.js`)).text()).toBe("export {}");
    expect((await fetch(`${base}/missing.js`)).status).toBe(404);
    expect((await fetch(`${base}/index.txt`)).status).toBe(404); // not a type it serves
  });

  it("serves nothing outside its folder, however the path is spelled", async () => {
    const { relay } = await relayServingConsole();
    for (const path of ["/../secret.js", "/..%2fsecret.js", "/chunks/../../secret.js", "/%2e%2e/secret.js", "//../secret.js", "/%E0%A4%A.js"]) {
      const { status, body } = await rawGet(relay.port, path);
      expect({ path, status }).toEqual({ path, status: 404 });
      expect(body).not.toContain("the secret");
    }
  });

  it("still refuses a foreign origin (403) and never puts the token in a page", async () => {
    const { relay, base } = await relayServingConsole();
    expect((await fetch(`${base}/`, { headers: { origin: "http://evil.example" } })).status).toBe(403);
    expect(await (await fetch(`${base}/`)).text()).not.toContain(relay.token);
  });

  it("takes a token of one's own (to survive a restart) only when it is as hard to guess as its own", async () => {
    const token = "A".repeat(20) + "b_-9".repeat(4);
    const relay = await startRelay({ upstream: { transport: new FakeAppServer().transport }, token });
    cleanups.push(() => relay.close());
    expect(relay.token).toBe(token);
    const outcome = await tryUpgrade(relay.url, { token });
    expect("socket" in outcome).toBe(true);
    if ("socket" in outcome) outcome.socket.close();
    for (const weak of ["short", "x".repeat(31), `${"x".repeat(32)} space`, `${"x".repeat(32)}/`]) {
      await expect(startRelay({ upstream: { transport: new FakeAppServer().transport }, token: weak })).rejects.toThrow(/at least 32 characters/);
    }
  });
});
