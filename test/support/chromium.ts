// Debian's chromium for the browser tests, driven by playwright-core (which downloads nothing: it
// is given the executable). Installed by tools/install-chromium.mjs (apt, as root). Without it the
// browser tests skip, except under CI=true, where they must run.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { REPOSITORY_ROOT } from "./pinned-codex.js";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/lib/chromium/chromium"];

/** The chromium executable (CHROMIUM_PATH, the Debian paths, or `chromium` on PATH), or undefined. */
export function findChromium(): string | undefined {
  const given = process.env.CHROMIUM_PATH;
  if (given !== undefined && given !== "") return existsSync(given) ? given : undefined;
  const known = CANDIDATES.find((path) => existsSync(path));
  if (known !== undefined) return known;
  try {
    return execFileSync("sh", ["-c", "command -v chromium"], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Whether browser tests run here: chromium found, or CI (where a missing one is a failure). */
export const CHROMIUM = findChromium();
export const RUN_BROWSER_TESTS = CHROMIUM !== undefined || process.env.CI === "true";
if (!RUN_BROWSER_TESTS) console.warn("browser tests skipped: no chromium (run `node tools/install-chromium.mjs` as root)");

/**
 * Headless chromium. Its sandbox stays on, except as root, where Chromium refuses to start with it
 * ("Running as root without --no-sandbox is not supported"): CI and this machine run as root.
 */
export function launchChromium(): Promise<Browser> {
  if (CHROMIUM === undefined) throw new Error("no chromium: run `node tools/install-chromium.mjs` (as root), or set CHROMIUM_PATH");
  return chromium.launch({ executablePath: CHROMIUM, headless: true, chromiumSandbox: process.getuid?.() !== 0, timeout: 30_000 });
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
