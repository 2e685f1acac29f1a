// Packages are debuggable where they are installed: the tarballs ship `src/`, which the source maps
// in `dist/` point at (`../src/*.ts`), so a stack under `node --enable-source-maps` (or Deno, which
// applies them itself) names a file that exists in node_modules, at the line that threw.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runtimeBinary } from "../support/runtimes.js";
import { type Consumer, createConsumer } from "./consumer.js";

const VERSION = JSON.parse(readFileSync(new URL("../../packages/core/package.json", import.meta.url), "utf8")).version as string;
// answerApproval refuses a decision outside its vocabulary: a throw inside core (in the module that
// answers by policy, loaded on demand), from user code.
const PROGRAM = `import { answerApproval } from "@codex-rpc/core";
try {
  await answerApproval("bogus", "item/commandExecution/requestApproval", {}, new AbortController().signal);
} catch (error) {
  console.log(error.stack);
}
`;

let consumer: Consumer;
beforeAll(() => {
  consumer = createConsumer("source-maps", { "@codex-rpc/core": VERSION });
  writeFileSync(`${consumer.dir}/main.mjs`, PROGRAM);
}, 120_000);
afterAll(() => consumer?.remove());

/** The innermost frame (where it threw): its file (as a path) and line. */
function frameOf(stack: string): { file: string; line: number } {
  const match = /^\s*at (?:\S+ \()?(?:file:\/\/)?([^)\s]+?):(\d+):\d+\)?$/m.exec(stack);
  if (!match?.[1] || !match[2]) throw new Error(`no frame in:\n${stack}`);
  return { file: match[1], line: Number(match[2]) };
}

describe("source maps of an installed package", () => {
  for (const [runtime, command, args] of [
    ["node --enable-source-maps", process.execPath, ["--enable-source-maps", "main.mjs"]],
    ["deno (node_modules)", runtimeBinary("deno"), ["run", "-A", "main.mjs"]],
  ] as const) {
    it(`${runtime}: the stack names core's shipped src/ file and the line that threw`, () => {
      const result = spawnSync(command, [...args], { cwd: consumer.dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
      expect(result.status, result.stderr).toBe(0);
      const { file, line } = frameOf(result.stdout);
      expect(file).toMatch(/node_modules\/@codex-rpc\/core\/src\/client\/approval-answer\.ts$/);
      expect(file.startsWith(consumer.dir) || file.includes("/codex-rpc-consumer-source-maps-")).toBe(true);
      expect(existsSync(file)).toBe(true);
      expect(readFileSync(file, "utf8").split("\n")[line - 1]).toContain("throw new InvalidHandlerResultError(method, `the approval policy returned");
    });
  }

  it("without source maps the frame is in dist/ (what the maps translate from)", () => {
    const result = spawnSync(process.execPath, ["main.mjs"], { cwd: consumer.dir, encoding: "utf8" });
    expect(frameOf(result.stdout).file).toMatch(/node_modules\/@codex-rpc\/core\/dist\/client\/approval-answer\.js$/);
  });
});
