// The client against real codex versions other than the pinned one, offline (the mock model), as a
// user whose codex is not 0.169.0 runs it: the protocol generated for that codex by the codegen CLI
// (`generate --codex <binary>`, validators on) and the default @codex-rpc/protocol (one
// `version-mismatch`). Each version: a streamed turn, an approval accepted and one declined, an
// interrupt, a method the server lacks, strictVersion, a clientInfo.name with a space and a slash.
//
// Not part of the default run (each version is an npm install of ~100 MB the first time, then
// ~10 s): CODEX_VERSIONS=0.160.0,0.163.0,0.165.0 npx vitest run --project real-codex test/codex-versions.real-codex.test.ts
// Versions go to .codex-versions/<version>/ (git-ignored, shared with tools/codegen-versions.mjs);
// a version npm cannot install is skipped with npm's reason.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CodexClient, type CodexClientOptions, type ConnectionDiagnostic } from "@codex-rpc/core";
import { codexBinaryIn } from "@codex-rpc/codegen";
import { spawnCodexAppServer } from "@codex-rpc/stdio";
import { MockResponsesProvider, createCodexHome, reply, type ScriptedReply } from "@codex-rpc/testing";
import { REPOSITORY_ROOT } from "./support/pinned-codex.js";

const VERSIONS = (process.env.CODEX_VERSIONS ?? "")
  .split(",")
  .map((version) => version.trim())
  .filter((version) => version !== "");
const CACHE = join(REPOSITORY_ROOT, ".codex-versions");
const CODEGEN_CLI = join(REPOSITORY_ROOT, "packages", "codegen", "bin", "codex-rpc-gen.js");

/** The codex binary of `version` from the cache, installed if missing; or why it cannot be had. */
function installCodex(version: string): { binary: string } | { skip: string } {
  const dir = join(CACHE, version);
  const manifest = join(dir, "node_modules", "@openai", "codex", "package.json");
  const installed = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version : undefined;
  if (installed !== version) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "codex-version-cache", private: true })}\n`);
    try {
      execFileSync("npm", ["install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", `@openai/codex@${version}`], {
        stdio: "pipe",
        timeout: 300_000,
      });
    } catch (error) {
      const stderr = String((error as { stderr?: unknown }).stderr ?? error);
      const reasons = stderr.split("\n").filter((line) => line.includes("error"));
      return { skip: `npm could not install @openai/codex@${version}: ${(reasons.length > 0 ? reasons.join("; ") : stderr).slice(0, 300)}` };
    }
  }
  const binary = codexBinaryIn(join(dir, "node_modules"));
  return binary ? { binary } : { skip: `no codex binary for this platform in @openai/codex@${version}` };
}

describe.skipIf(VERSIONS.length === 0)("other codex versions (set CODEX_VERSIONS=0.160.0,0.163.0 to run)", () => {
  for (const version of VERSIONS) {
    describe(`codex ${version}`, () => {
      let codex: { binary: string } | { skip: string };
      let generated: CodexClientOptions["protocol"];
      let out: string;

      beforeAll(async () => {
        codex = installCodex(version);
        if (!("binary" in codex)) return;
        out = await mkdtemp(join(tmpdir(), "codex-rpc-versions-"));
        execFileSync(process.execPath, [CODEGEN_CLI, "generate", "--codex", codex.binary, "--out", join(out, "protocol")], { stdio: "pipe" });
        generated = ((await import(pathToFileURL(join(out, "protocol", "stable", "index.js")).href)) as { protocol: CodexClientOptions["protocol"] }).protocol;
      }, 600_000);

      afterAll(async () => {
        if (out) await rm(out, { recursive: true, force: true });
      });

      /** A session on that codex; its diagnostics other than stderr lines are collected. */
      async function session(script: readonly ScriptedReply[], options: CodexClientOptions) {
        const provider = await MockResponsesProvider.start({ script });
        const home = await createCodexHome({ provider });
        const workspace = await mkdtemp(join(tmpdir(), "codex-rpc-workspace-"));
        const binary = (codex as { binary: string }).binary;
        const transport = await spawnCodexAppServer({ codexPath: binary, env: { PATH: process.env.PATH ?? "", ...home.env }, cwd: workspace });
        const client = await CodexClient.connect(transport, { validate: true, ...options }).catch(async (error: unknown) => {
          await transport.close();
          await provider.close();
          await home.cleanup();
          await rm(workspace, { recursive: true, force: true });
          throw error;
        });
        const diagnostics: ConnectionDiagnostic[] = [];
        client.diagnostics$.subscribe((diagnostic) => {
          if (diagnostic.kind !== "stderr") diagnostics.push(diagnostic);
        });
        return {
          client,
          provider,
          workspace,
          diagnostics,
          [Symbol.asyncDispose]: async () => {
            await client.close();
            await provider.close();
            await home.cleanup();
            await rm(workspace, { recursive: true, force: true });
          },
        };
      }

      for (const which of ["generated", "default"] as const) {
        it(`with the ${which} protocol: turns, approvals, interrupt, a missing method, strictVersion`, async (context) => {
          if (!("binary" in codex)) return context.skip(codex.skip);
          const protocol = which === "generated" ? { protocol: generated } : {};
          const expected = which === "generated" ? [] : ["version-mismatch"];
          {
            await using s = await session([reply.text("The quick brown fox.", { chunks: 4 })], protocol);
            expect(s.client.serverVersion).toBe(version);
            const turn = (await s.client.startThread({ cwd: s.workspace, approvalPolicy: "never" })).run("Say it.");
            const deltas: string[] = [];
            turn.text$.subscribe((delta) => deltas.push(delta));
            const done = await turn.completed;
            expect([done.status, deltas.join(""), done.finalText]).toEqual(["completed", "The quick brown fox.", "The quick brown fox."]);
            const missing = await s.client.requestUntyped("modelProvider/list", {}).catch((error: unknown) => error);
            expect(missing).toMatchObject({ code: "METHOD_NOT_SUPPORTED", serverVersion: version });
            expect(s.diagnostics.map((d) => d.kind)).toEqual(expected);
          }
          for (const decision of ["accept", "decline"] as const) {
            const call = reply.execCommand({ cmd: "touch marker.txt", sandbox_permissions: "require_escalated", justification: "May I?" });
            await using s = await session([call, reply.text("Done.")], { ...protocol, approvals: () => decision });
            const thread = await s.client.startThread({ cwd: s.workspace, approvalPolicy: "untrusted" });
            const done = await thread.run("Make the marker.").completed;
            const command = done.items.find((item) => item.type === "commandExecution");
            expect([done.status, command?.status, existsSync(join(s.workspace, "marker.txt"))]).toEqual([
              "completed",
              decision === "accept" ? "completed" : "declined",
              decision === "accept",
            ]);
            expect(s.diagnostics.map((d) => d.kind)).toEqual(expected);
          }
          {
            await using s = await session([reply.hang()], protocol);
            const turn = (await s.client.startThread({ cwd: s.workspace, approvalPolicy: "never" })).run("Hang.");
            await turn.started;
            await s.provider.waitForRequests(1);
            await turn.interrupt();
            expect((await turn.completed).status).toBe("interrupted");
          }
          const strict = session([], { ...protocol, strictVersion: true, clientInfo: { name: "My App/2", version: "1.0.0" } });
          if (which === "generated") {
            await using s = await strict;
            expect(s.client.serverVersion).toBe(version);
          } else {
            expect(await strict.catch((error: unknown) => error)).toMatchObject({ code: "PROTOCOL_VERSION_MISMATCH", serverVersion: version });
          }
        }, 120_000);
      }
    });
  }
});
