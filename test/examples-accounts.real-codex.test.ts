import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const example = fileURLToPath(new URL("../examples/accounts.mjs", import.meta.url));

describe("the accounts example (examples/accounts.mjs)", () => {
  it("lists models, logs in with an API key and out, starts and cancels a ChatGPT login, offline; exits 0", () => {
    const run = spawnSync(process.execPath, [example], { encoding: "utf8", timeout: 60_000, env: { ...process.env, NO_COLOR: "1" } });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^models: \S+ \(default\), /m);
    expect(run.stdout).toContain("account: none (requires OpenAI auth: true)");
    expect(run.stdout).toContain("after API-key login: apiKey");
    expect(run.stdout).toContain("after logout: none");
    expect(run.stdout).toMatch(/ChatGPT login URL: https:\/\/auth\.openai\.com\/oauth\/authorize \(login [0-9a-f]{8}…\)/);
    expect(run.stdout).toContain("cancel: canceled");
    expect(run.stdout).toContain("login completed: success false, Login server error: Login was not completed");
    expect(run.stdout).not.toContain("sk-example");
  });
});
