#!/usr/bin/env node
// Installs Debian's `chromium` for the browser tests (test/*.browser.test.ts, driven by
// playwright-core, which is given this executable and downloads no browser of its own).
//
// - Nothing to do when chromium is already there (CHROMIUM_PATH, /usr/bin/chromium, or on PATH).
// - As root with apt-get (CI: a fresh Debian container as root, CI=true, no stdin): `apt-get
//   update` then `apt-get install -y --no-install-recommends chromium`, non-interactive.
// - Otherwise it installs nothing and says so: the browser tests then skip, except under CI=true,
//   where a missing chromium fails this script (CI must really run them).
//
// Usage: node tools/install-chromium.mjs

import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/lib/chromium/chromium"];

function found() {
  const given = process.env.CHROMIUM_PATH;
  if (given) return existsSync(given) ? given : undefined;
  const known = CANDIDATES.find((path) => existsSync(path));
  if (known) return known;
  const which = spawnSync("sh", ["-c", "command -v chromium"], { encoding: "utf8" });
  return which.status === 0 ? which.stdout.trim() || undefined : undefined;
}

function version(path) {
  const result = spawnSync(path, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  return result.status === 0 ? result.stdout.trim() : "(version unknown)";
}

function run(command, args) {
  console.log(`install-chromium: ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${result.status ?? result.signal}`);
}

const present = found();
if (present) {
  console.log(`install-chromium: ${version(present)} at ${present}`);
  process.exit(0);
}
const isRoot = process.getuid?.() === 0;
const hasApt = spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status === 0;
if (isRoot && hasApt) {
  run("apt-get", ["update", "-q"]);
  run("apt-get", ["install", "-y", "-q", "--no-install-recommends", "chromium"]);
  const installed = found();
  if (!installed) throw new Error("install-chromium: apt-get installed chromium, but no chromium executable was found");
  console.log(`install-chromium: installed ${version(installed)} at ${installed}`);
  process.exit(0);
}
const why = isRoot ? "apt-get is not available" : "not root (apt-get needs root)";
const message = `install-chromium: no chromium, and ${why}: install Debian's chromium (sudo apt-get install chromium) or set CHROMIUM_PATH`;
if (process.env.CI === "true") {
  console.error(`${message}. CI must run the browser tests: failing.`);
  process.exit(1);
}
console.log(`${message}. The browser tests (test/*.browser.test.ts) will be skipped.`);
