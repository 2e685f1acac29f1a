// The client typed by three protocol surfaces: stable (default), experimental (passed at run time)
// and a module generated for another codex version (0.166.0, from the vendored schemas). Each file
// in surfaces/ has `@ts-expect-error` lines for what its surface lacks, so the check fails both
// when a method is missing that should be there and when one is there that should not be.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const surfaces = fileURLToPath(new URL("./surfaces/", import.meta.url));
const repository = fileURLToPath(new URL("../../../", import.meta.url));
const require = createRequire(import.meta.url);

/** The generator's command, found through the @codex-rpc/codegen devDependency (its `bin`). */
function codegenBin(): string {
  const manifest = require.resolve("@codex-rpc/codegen/package.json");
  const { bin } = JSON.parse(readFileSync(manifest, "utf8")) as { bin: Record<string, string> };
  return join(dirname(manifest), bin["codex-rpc-gen"]!);
}

it("stable, experimental and a codex 0.166.0 module each type the client, strict under nodenext", () => {
  const out = `${surfaces}protocol-0.166.0`;
  rmSync(out, { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [codegenBin(), "generate", "--schemas", `${repository}schemas/codex/0.166.0`, "--out", out, "--package", "codex-protocol-0.166.0"],
    { stdio: "pipe" },
  );
  const tsc = require.resolve("typescript/bin/tsc");
  let output = "";
  try {
    execFileSync(process.execPath, [tsc, "-p", `${surfaces}tsconfig.json`], { encoding: "utf8", stdio: "pipe" });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  }
  expect(output).toBe("");
}, 120_000);
