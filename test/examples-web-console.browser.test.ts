// examples/web-console.mjs as a user runs it: it prints the console's URL; Chromium opens it, runs
// the scripted turns (an approved `ls -1`, then a patch shown as a diff), and SIGTERM stops it cleanly.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, RUN_BROWSER_TESTS, screenshot } from "./support/chromium.js";

let browser: Browser;
beforeAll(async () => {
  if (RUN_BROWSER_TESTS) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe.runIf(RUN_BROWSER_TESTS)("the web console example (examples/web-console.mjs)", () => {
  it("prints the console URL; in Chromium a turn runs an approved command, the next shows a patch as a diff; SIGTERM stops it", async () => {
    const example = spawn(process.execPath, [fileURLToPath(new URL("../examples/web-console.mjs", import.meta.url))], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    example.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    const exited = new Promise<number | null>((resolve) => example.once("exit", (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        example.stdout.setEncoding("utf8").on("data", (text: string) => {
          stdout += text;
          const match = /^console: (http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+)$/m.exec(stdout);
          if (match) resolve(match[1]!);
        });
        void exited.then((code) => reject(new Error(`the example exited (${code}): ${stdout}${stderr}`)));
      });
      const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
      const page = await context.newPage();
      await page.goto(url);
      await page.locator('#state[data-state="open"]').waitFor();
      await page.click("#new-thread");
      await page.locator("#thread-id", { hasNotText: "none" }).waitFor();
      await page.fill("#prompt", "What is in the workspace?");
      await page.click("#send");
      await page.locator('.approval button[data-decision="accept"]').click();
      await page.locator(".command-output", { hasText: "notes.txt" }).waitFor();
      await page.locator(".turn-end", { hasText: "turn completed" }).waitFor();
      expect(await page.textContent('.item[data-type="agentMessage"] .agent-text')).toBe("The workspace holds two files: README.md and notes.txt.");
      await page.fill("#prompt", "Add a greeting.");
      await page.click("#send");
      await page.locator('.approval[data-kind="fileChange"] button[data-decision="accept"]').click();
      await page.locator(".turn-end", { hasText: "turn completed" }).nth(1).waitFor();
      expect(await page.locator(".diff .diff-add").allTextContents()).toEqual(["+Hello from the web console."]);
      await screenshot(page, "example-web-console");
      await context.close();
    } finally {
      example.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
    expect(stderr).toBe("");
  });
});
