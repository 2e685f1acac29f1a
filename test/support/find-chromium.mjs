// Where Debian's chromium is (CHROMIUM_PATH, the Debian paths, or `chromium` on PATH), for the
// browser tests and the conformance suite's Chromium path. tools/install-chromium.mjs installs it.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/lib/chromium/chromium"];

/** @returns {string | undefined} */
export function findChromium() {
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

/**
 * Chromium's sandbox stays on, except as root, where Chromium refuses to start with it ("Running as
 * root without --no-sandbox is not supported"): CI and this machine run as root.
 */
export const CHROMIUM_SANDBOX = process.getuid?.() !== 0;
