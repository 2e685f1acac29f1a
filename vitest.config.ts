import { defineConfig } from "vitest/config";

// Test files follow one naming rule, and each kind runs as a project of its own
// (`vitest run --project real-codex`); `pnpm test` runs them all:
// - `*.runtime.test.ts` runs another runtime (Deno, Bun or Node 22 from `.runtimes/`, installed by
//   `tools/install-runtimes.mjs`), often against the real codex too;
// - `*.real-codex.test.ts` runs the pinned codex (the `@openai/codex` devDependency) under this Node;
// - `*.browser.test.ts` drives Debian's chromium (playwright-core; tools/install-chromium.mjs) against
//   the real codex behind the relay;
// - everything else (`unit`) needs neither: in-memory servers, fake processes, the type checker.
// The reliability and conformance suites are projects of their own whatever their files need, and so
// are the `packed` tests (test/packed/), which install the packed packages from a local registry.
const PACKED = "test/packed/**/*.test.ts";
const RELIABILITY = "test/reliability/**/*.test.ts";
const CONFORMANCE = "test/conformance.runtime.test.ts";
const ALL = ["packages/*/test/**/*.test.ts", "test/**/*.test.ts"];
const REAL_CODEX = ALL.map((glob) => glob.replace("*.test.ts", "*.real-codex.test.ts"));
const RUNTIMES = ALL.map((glob) => glob.replace("*.test.ts", "*.runtime.test.ts"));
const BROWSER = ALL.map((glob) => glob.replace("*.test.ts", "*.browser.test.ts"));
const SUITES = [RELIABILITY, CONFORMANCE, PACKED];

const NODE_MODULES = "**/node_modules/**";
const timeouts = { testTimeout: 60_000, hookTimeout: 60_000 };

export default defineConfig({
  test: {
    // Once for the whole run: a temp directory of the run's own, and a failure when a test left a
    // `codex-rpc-` directory in it (test/support/temp-dir-check.ts).
    globalSetup: ["test/support/temp-dir-check.ts"],
    projects: [
      { test: { ...timeouts, name: "unit", include: ALL, exclude: [NODE_MODULES, ...REAL_CODEX, ...RUNTIMES, ...BROWSER, ...SUITES] } },
      { test: { ...timeouts, name: "real-codex", include: REAL_CODEX, exclude: [NODE_MODULES, ...SUITES] } },
      { test: { ...timeouts, name: "browser", include: BROWSER, exclude: [NODE_MODULES, ...SUITES] } },
      { test: { ...timeouts, name: "runtimes", include: RUNTIMES, exclude: [NODE_MODULES, ...SUITES] } },
      // Prints the reliability summary table after the run.
      { test: { ...timeouts, name: "reliability", include: [RELIABILITY], globalSetup: ["test/reliability/global-setup.ts"] } },
      { test: { ...timeouts, name: "conformance", include: [CONFORMANCE] } },
      // Starts verdaccio and publishes every package to it once (test/packed/global-setup.ts); prints
      // the release table and the smoke test's runtime × consumer table.
      {
        test: {
          ...timeouts,
          name: "packed",
          include: [PACKED],
          globalSetup: ["test/packed/global-setup.ts"],
          fileParallelism: false,
        },
      },
    ],
  },
});
