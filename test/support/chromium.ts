// Debian's chromium for the browser tests, driven by playwright-core (which downloads nothing: it
// is given the executable). Installed by tools/install-chromium.mjs (apt, as root). Without it the
// browser tests skip, except under CI=true, where they must run.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { CHROMIUM_SANDBOX, findChromium } from "./find-chromium.mjs";
import { REPOSITORY_ROOT } from "./pinned-codex.js";

/** Whether browser tests run here: chromium found, or CI (where a missing one is a failure). */
export const CHROMIUM = findChromium();
export const RUN_BROWSER_TESTS = CHROMIUM !== undefined || process.env.CI === "true";
if (!RUN_BROWSER_TESTS) console.warn("browser tests skipped: no chromium (run `node tools/install-chromium.mjs` as root)");

/** Headless chromium, its sandbox on unless root (see find-chromium.mjs). */
export function launchChromium(): Promise<Browser> {
  if (CHROMIUM === undefined) throw new Error("no chromium: run `node tools/install-chromium.mjs` (as root), or set CHROMIUM_PATH");
  return chromium.launch({ executablePath: CHROMIUM, headless: true, chromiumSandbox: CHROMIUM_SANDBOX, timeout: 30_000 });
}

/** Where the screenshots go (git-ignored). */
export const ARTIFACTS = join(REPOSITORY_ROOT, ".artifacts", "browser");

/** Saves a full-page screenshot as `.artifacts/browser/<name>.png`; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
