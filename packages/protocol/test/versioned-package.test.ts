// Versioned protocol packages: each codex version's package builds from its vendored schemas, and
// its version names that codex version (codex 0.M.P → M.P.R).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));

describe("versioned @codex-rpc/protocol packages", () => {
  it("the workspace package's version names the codex version it was generated from", async () => {
    const manifest = JSON.parse(readFileSync(`${root}packages/protocol/package.json`, "utf8")) as { version: string; codexVersion: string };
    const { protocol } = await import("@codex-rpc/protocol");
    expect(manifest.codexVersion).toBe(protocol.version);
    const [, minor, patch] = protocol.version.split(".");
    expect(manifest.version).toMatch(new RegExp(`^${minor}\\.${patch}\\.\\d+$`));
  });

  for (const codexVersion of ["0.166.0", "0.169.0"]) {
    it(`builds for codex ${codexVersion} from the vendored schemas`, async () => {
      const out = `${root}.build/protocol-test/${codexVersion}`;
      execFileSync(process.execPath, [`${root}tools/build-protocol-package.mjs`, codexVersion, "--revision", "2", "--out", out], { stdio: "pipe" });
      const manifest = JSON.parse(readFileSync(`${out}/package.json`, "utf8")) as { name: string; version: string; codexVersion: string };
      expect(manifest).toMatchObject({ name: "@codex-rpc/protocol", version: `${codexVersion.split(".").slice(1).join(".")}.2`, codexVersion });
      const module = (await import(pathToFileURL(`${out}/generated/stable/index.js`).href)) as { protocol: { version: string } };
      expect(module.protocol.version).toBe(codexVersion);
      expect(readFileSync(`${out}/README.md`, "utf8")).toContain(`codex ${codexVersion}`);
    }, 60_000);
  }

  it("refuses a version without vendored schemas, saying how to vendor them", () => {
    let stderr = "";
    try {
      execFileSync(process.execPath, [`${root}tools/build-protocol-package.mjs`, "0.150.0"], { stdio: "pipe" });
    } catch (error) {
      stderr = String((error as { stderr: Buffer }).stderr);
    }
    expect(stderr).toContain("node tools/vendor-schema-bundles.mjs 0.150.0");
  });
});
