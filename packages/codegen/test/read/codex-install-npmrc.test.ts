// `--codex-version X` installs @openai/codex with npm into a temporary prefix; npm reads the project's
// .npmrc only from the prefix, so the user's registry (a mirror, a private registry with its auth)
// must be brought along. An unreachable registry shows it: the install must fail against that one,
// at once (fetch-retries=0), and the error must name it but never print the token.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { installCodex, projectNpmrc, redactSecrets } from "../../src/read/codex-binary.js";
import { CodegenError } from "../../src/util/codegen-error.js";
import { temporaryDirectory } from "../support/temporary-directory.js";

const TOKEN = "npm_SECRETTOKEN1234567890";

function project(marker: "package.json" | "node_modules"): { root: string; cwd: string } {
  const root = temporaryDirectory("codex-rpc-npmrc-");
  if (marker === "package.json") writeFileSync(join(root, "package.json"), '{ "name": "x", "private": true }\n');
  else mkdirSync(join(root, "node_modules"));
  writeFileSync(join(root, ".npmrc"), `registry=http://127.0.0.1:9/\nfetch-retries=0\n//127.0.0.1:9/:_authToken=${TOKEN}\n`);
  const cwd = join(root, "src", "deeper");
  mkdirSync(cwd, { recursive: true });
  return { root, cwd };
}

describe("--codex-version installs with the user's npm configuration", () => {
  it.each(["package.json", "node_modules"] as const)("finds the project's .npmrc as npm does: the nearest folder up holding %s", (marker) => {
    const { root, cwd } = project(marker);
    expect(projectNpmrc(cwd)).toBe(join(root, ".npmrc"));
  });

  it("in an npm workspace, finds the workspace root's .npmrc, as npm does (review 8 N2)", () => {
    const root = temporaryDirectory("codex-rpc-npmrc-");
    writeFileSync(join(root, "package.json"), '{ "name": "root", "private": true, "workspaces": ["packages/*"] }\n');
    writeFileSync(join(root, ".npmrc"), "registry=http://127.0.0.1:9/ws-root/\n");
    const app = join(root, "packages", "app");
    mkdirSync(app, { recursive: true });
    writeFileSync(join(app, "package.json"), '{ "name": "app", "version": "1.0.0" }\n');
    expect(projectNpmrc(app)).toBe(join(root, ".npmrc"));
  });

  it("installs from the project's registry: an unreachable one fails fast, named, the token never shown", () => {
    const { cwd } = project("package.json");
    const started = Date.now();
    let error: unknown;
    try {
      installCodex("0.161.0", { cwd }).dispose();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CodegenError);
    const { code, message } = error as CodegenError;
    expect(code).toBe("CODEX_EXPORT_FAILED");
    expect(message).toContain("could not install @openai/codex@0.161.0");
    expect(message).toContain("registry http://127.0.0.1:9");
    expect(message).not.toContain(TOKEN);
    expect(message).not.toMatch(/^\s+at /m);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it.each([
    ["a token as the URL's user name", "http://SECRETUSER3@127.0.0.1:9/", "SECRETUSER3"],
    ["a token with an empty password", "http://SECRETTOK6:@127.0.0.1:9/", "SECRETTOK6"],
    ["a token in the registry's path", "http://127.0.0.1:9/SECRETPATHTOKEN/npm/", "SECRETPATHTOKEN"],
  ])("names the registry by its origin only: %s is never shown (review 8 N1)", (_, registry, secret) => {
    const root = temporaryDirectory("codex-rpc-npmrc-");
    writeFileSync(join(root, "package.json"), '{ "name": "x", "private": true }\n');
    writeFileSync(join(root, ".npmrc"), `registry=${registry}\nfetch-retries=0\n`);
    let error: unknown;
    try {
      installCodex("0.161.0", { cwd: root }).dispose();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CodegenError);
    const { message } = error as CodegenError;
    expect(message).toContain("registry http://127.0.0.1:9");
    expect(message).not.toContain(secret);
  });

  it("redacts URL user info of any form in npm's lines (review 8 N1)", () => {
    expect(redactSecrets("GET http://SECRETUSER3@r.example/x and https://TOK:@r.example/y")).toBe(
      "GET http://[REDACTED]@r.example/x and https://[REDACTED]@r.example/y",
    );
  });

  it("redacts auth values and URL credentials from what npm says", () => {
    expect(redactSecrets(`//r.example/:_authToken=${TOKEN}; https://me:pw@r.example/x; _password = hunter2`)).toBe(
      "//r.example/:_authToken=[REDACTED]; https://[REDACTED]@r.example/x; _password = [REDACTED]",
    );
  });
});
