// The web console (examples/web-console) in headless Chromium, served by the relay in front of the
// real codex 0.169.0 with the scripted mock model. Screenshots: .artifacts/browser/*.png.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { reply, type ScriptedReply } from "@codex-rpc/testing";
import { launchChromium, RUN_BROWSER_TESTS, screenshot } from "./support/chromium.js";
import { ConsoleRelay, serveForeignCopy } from "./support/console-relay.js";

let browser: Browser;
const cleanups: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  if (RUN_BROWSER_TESTS) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function relayWith(script: readonly ScriptedReply[]): Promise<ConsoleRelay> {
  const relay = await ConsoleRelay.start(script);
  cleanups.push(() => relay.close());
  return relay;
}

/** A page in a browser context of its own (its own storage), with its console errors collected. */
async function openPage(url: string): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  cleanups.push(() => context.close());
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(url);
  return { page, context, errors };
}

async function waitForState(page: Page, state: string, timeout = 20_000): Promise<void> {
  await page.locator(`#state[data-state="${state}"]`).waitFor({ timeout });
}

async function newThread(page: Page): Promise<string> {
  await waitForState(page, "open");
  await page.click("#new-thread");
  await page.locator("#thread-id", { hasNotText: "none" }).waitFor();
  return (await page.textContent("#thread-id")) ?? "";
}

async function send(page: Page, prompt: string): Promise<void> {
  await page.fill("#prompt", prompt);
  await page.click("#send");
}

describe.runIf(RUN_BROWSER_TESTS)("the web console in Chromium, through the relay, against the real codex", () => {
  it("streams a turn into the page; the approval offers the server's decisions, Accept is clicked and the command's output appears", async () => {
    const relay = await relayWith([
      reply.combined(
        reply.reasoning({ summary: "Checking the workspace before answering.", chunks: 4 }),
        reply.execCommand({ cmd: "echo console-output-42 && touch approved.txt" }),
      ),
      reply.text("The command printed console-output-42, and approved.txt now exists in the workspace.", { chunks: 8 }),
    ]);
    const { page, errors } = await openPage(relay.consoleUrl());
    expect(page.url()).not.toContain(relay.relay.token); // the page took the token out of the address bar
    await newThread(page);
    // Every value the agent's text takes on screen, to see it grow delta by delta.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { agentTexts: string[] }).agentTexts = seen;
      new MutationObserver(() => {
        const text = document.querySelector('.item[data-type="agentMessage"] .agent-text')?.textContent;
        if (text && seen.at(-1) !== text) seen.push(text);
      }).observe(document.getElementById("items") as HTMLElement, { childList: true, subtree: true, characterData: true });
    });
    await send(page, "Run the check, then tell me what it printed.");

    const approval = page.locator(".approval");
    await approval.waitFor();
    const decisions = await approval.locator("button").evaluateAll((buttons) => buttons.map((b) => b.getAttribute("data-decision")));
    console.log(`codex 0.169.0 command approval, buttons in the page: ${decisions.join(", ")}`);
    expect(decisions).toEqual(["accept", "cancel", "decline"]);
    expect(await approval.textContent()).toContain("console-output-42");
    await expect.poll(() => page.locator('.item[data-type="reasoning"]').textContent()).toContain("Checking the workspace");
    await screenshot(page, "1-approval-asked");

    await approval.locator('button[data-decision="accept"]').click();
    await page.locator(".command-output", { hasText: "console-output-42" }).waitFor();
    await page.locator(".turn-end", { hasText: "turn completed" }).waitFor();
    expect(await page.textContent('.item[data-type="agentMessage"] .agent-text')).toBe(
      "The command printed console-output-42, and approved.txt now exists in the workspace.",
    );
    expect(await page.textContent(".command-status")).toBe("completed, exit 0");
    const texts = await page.evaluate(() => (window as unknown as { agentTexts: string[] }).agentTexts);
    console.log(`agent text seen in the page ${texts.length} times while streaming: ${JSON.stringify(texts.slice(0, 3))}…`);
    expect(texts.length).toBeGreaterThan(2);
    expect(await page.locator(".approval").count()).toBe(0);
    await screenshot(page, "2-turn-streamed-command-output");
    expect(errors).toEqual([]);
  });

  it("file changes show as diffs (an added file, then an update), each approved in the page", async () => {
    const add = "*** Begin Patch\n*** Add File: greeting.txt\n+hello from the console\n+second line\n*** End Patch";
    const update = "*** Begin Patch\n*** Update File: greeting.txt\n@@\n hello from the console\n-second line\n+second line, changed\n*** End Patch";
    const relay = await relayWith([
      reply.execCommand({ cmd: `apply_patch <<'EOF'\n${add}\nEOF` }),
      reply.execCommand({ cmd: `apply_patch <<'EOF'\n${update}\nEOF` }),
      reply.text("Added greeting.txt and changed its second line."),
    ]);
    const { page, errors } = await openPage(relay.consoleUrl());
    await newThread(page);
    await send(page, "Add a greeting file, then change it.");
    for (const step of ["add", "update"]) {
      const approval = page.locator(".approval");
      await approval.waitFor();
      // codex 0.169.0 runs an `apply_patch` given to exec_command as a patch: a fileChange item, and
      // item/fileChange/requestApproval without availableDecisions, so all four decisions are offered.
      expect(await approval.getAttribute("data-kind")).toBe("fileChange");
      expect(await approval.locator("button").evaluateAll((buttons) => buttons.map((b) => b.getAttribute("data-decision")))).toEqual([
        "accept",
        "acceptForSession",
        "decline",
        "cancel",
      ]);
      if (step === "add") await screenshot(page, "3-file-change-approval");
      await approval.locator('button[data-decision="accept"]').click();
      await page.locator(".approval").waitFor({ state: "detached" });
    }
    await page.locator(".turn-end", { hasText: "turn completed" }).waitFor();
    const diffs = page.locator('.item[data-type="fileChange"] .diff');
    expect(await diffs.count()).toBe(2);
    expect(await diffs.nth(0).locator(".diff-add").allTextContents()).toEqual(["+hello from the console", "+second line"]);
    expect(await diffs.nth(1).locator(".diff-del").allTextContents()).toEqual(["-second line"]);
    expect(await diffs.nth(1).locator(".diff-add").allTextContents()).toEqual(["+second line, changed"]);
    console.log(`codex 0.169.0 update diff: ${JSON.stringify(await diffs.nth(1).textContent())}`);
    await screenshot(page, "4-file-changes-as-diffs");
    expect(errors).toEqual([]);
  });

  it("a second page in another browser context cannot see or resume the first page's thread", async () => {
    const relay = await relayWith([reply.text("Only page A sees this.", { chunks: 3 })]);
    const a = await openPage(relay.consoleUrl());
    const threadId = await newThread(a.page);
    await send(a.page, "Hello from A");
    await a.page.locator(".turn-end", { hasText: "turn completed" }).waitFor();

    const b = await openPage(relay.consoleUrl());
    await waitForState(b.page, "open");
    await b.page.fill("#resume-id", threadId);
    await b.page.click("#resume");
    await b.page.locator("#error:not([hidden])").waitFor();
    const refusal = (await b.page.textContent("#error")) ?? "";
    console.log(`page B resuming page A's thread: ${refusal}`);
    expect(refusal).toMatch(/Resuming failed/);
    expect(await b.page.textContent("#thread-id")).toBe("none");
    expect(await b.page.locator(".item").count()).toBe(0);
    expect(await b.page.content()).not.toContain("Only page A sees this.");
    await screenshot(b.page, "5-second-context-refused-thread");
  });

  it("a wrong token and a foreign origin are refused, and the page says so", async () => {
    const relay = await relayWith([]);
    const wrong = await openPage(relay.consoleUrl("x".repeat(43)));
    await waitForState(wrong.page, "refused");
    const wrongTokenError = (await wrong.page.textContent("#error")) ?? "";
    console.log(`the page, given a wrong token: ${wrongTokenError}`);
    expect(wrongTokenError).toMatch(/^Refused: the relay allows this page's origin but did not accept its token/);
    expect(wrongTokenError).not.toContain("x".repeat(43));
    await screenshot(wrong.page, "6-wrong-token-refused");

    const foreign = await serveForeignCopy();
    cleanups.push(() => foreign.close());
    const page = await openPage(`${foreign.origin}/#relay=http://127.0.0.1:${relay.relay.port}&token=${relay.relay.token}`);
    await waitForState(page.page, "refused");
    expect(await page.page.textContent("#error")).toContain(`does not allow this page's origin (${foreign.origin})`);
    await screenshot(page.page, "7-foreign-origin-refused");
    // The discovery 403 carries Access-Control-Allow-Origin: *, so a refused page's fetch sees the
    // status (what @codex-rpc/websocket's refusal probe needs to say "origin refused") instead of a CORS error.
    const seen = await page.page.evaluate(
      (url) =>
        fetch(url, { cache: "no-store" }).then(
          (response) => String(response.status),
          (error: unknown) => `fetch failed: ${String(error)}`,
        ),
      `http://127.0.0.1:${relay.relay.port}/.well-known/codex-rpc-relay`,
    );
    console.log(`a foreign page fetching the discovery document: ${seen}`);
    expect(seen).toBe("403");
    expect(relay.relay.upstreamMessageCount).toBe(2); // the relay's own initialize + initialized: nothing from the pages
  });

  it("--open's one-time code: the page exchanges it for the token once; a second page with the same code is refused (issue 15, finding 5)", async () => {
    const relay = await relayWith([]);
    const code = relay.relay.createLoginCode();
    const first = await openPage(relay.consoleCodeUrl(code));
    await waitForState(first.page, "open");
    expect(first.page.url()).not.toContain(code); // taken out of the address bar
    expect(first.errors).toEqual([]);
    await first.page.reload(); // the token was kept for this tab
    await waitForState(first.page, "open");
    await screenshot(first.page, "7b-opened-with-one-time-code");

    const second = await openPage(relay.consoleCodeUrl(code));
    await waitForState(second.page, "refused");
    const error = (await second.page.textContent("#error")) ?? "";
    console.log(`a second page with the used code: ${error}`);
    expect(error).toMatch(
      /^No token: the relay refused this page's one-time code \(a #code=… from --open works once, for 60 s, and this one was used or has expired\)/,
    );
  });

  it("steers and interrupts a running turn from the page", async () => {
    const relay = await relayWith([reply.hang()]);
    const { page } = await openPage(relay.consoleUrl());
    await newThread(page);
    await send(page, "Take your time.");
    await relay.provider.waitForRequests(1);
    await page.fill("#prompt", "Also mention the weather.");
    await page.click("#steer");
    // codex 0.169.0 accepts turn/steer at once, but records the input as a userMessage item only when
    // it makes its next model request (this one hangs): the page shows what it steered in the turn.
    await page.locator(".steered", { hasText: "steered: Also mention the weather." }).waitFor();
    await page.click("#interrupt");
    await page.locator(".turn-end", { hasText: "turn interrupted" }).waitFor();
    await screenshot(page, "8-steered-and-interrupted");
  });

  it("the relay restarted mid-turn: the page shows the drop and the reconnect, and the next turn works", async () => {
    const relay = await relayWith([reply.hang(), reply.text("Back after the restart.", { chunks: 4 })]);
    const { page } = await openPage(relay.consoleUrl());
    const threadId = await newThread(page);
    await send(page, "A long task");
    await relay.provider.waitForRequests(1);
    await relay.stop();
    await page.locator(".turn-end.turn-lost").waitFor();
    await waitForState(page, "reconnecting");
    await screenshot(page, "9-relay-down-reconnecting");
    await relay.startAgain();
    await waitForState(page, "open");
    expect(await page.textContent("#reconnects")).toBe("1");
    expect(await page.textContent("#log")).toMatch(/connection lost; reconnecting/);
    expect(await page.textContent("#log")).toContain(`${threadId.slice(0, 8)}… resumed`);
    await screenshot(page, "10-reconnected-after-relay-restart");
    await send(page, "Are you back?");
    await page.locator(".turn-end", { hasText: "turn completed" }).waitFor();
    expect(await page.locator('.item[data-type="agentMessage"] .agent-text').last().textContent()).toBe("Back after the restart.");
    await screenshot(page, "11-next-turn-after-restart");
  });
});
