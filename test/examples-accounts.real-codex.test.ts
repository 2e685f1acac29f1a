import { describe, expect, it } from "vitest";
import { runExample } from "./support/run-example.js";

describe("the accounts example (examples/accounts.mjs)", () => {
  it("lists models, logs in with an API key and out, starts and cancels a ChatGPT login, offline; exits 0", () => {
    const stdout = runExample("accounts.mjs");
    expect(stdout).toMatch(/^models: \S+ \(default\), /m);
    expect(stdout).toContain("account: none (requires OpenAI auth: true)");
    expect(stdout).toContain("after API-key login: apiKey");
    expect(stdout).toContain("after logout: none");
    expect(stdout).toMatch(/ChatGPT login URL: https:\/\/auth\.openai\.com\/oauth\/authorize \(login [0-9a-f]{8}…\)/);
    expect(stdout).toContain("cancel: canceled");
    expect(stdout).toContain("login completed: success false, Login server error: Login was not completed");
    expect(stdout).not.toContain("sk-example");
  });
});
