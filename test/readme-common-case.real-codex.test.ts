// The README's five-line common case, as written there: type-checked (strict) with the workspace
// TypeScript and run against the real codex app-server with the bundled mock model. The test
// supplies only the environment (CODEX_HOME pointing at the mock model, a workspace as cwd), so
// the snippet stays exactly what a user copies.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { MockResponsesProvider, createCodexHome, reply } from "@codex-rpc/testing";

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// Inside the repository so `@codex-rpc/*` resolve to the workspace packages (git-ignored).
const snippetDir = join(root, "test", ".readme-snippets");
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");

/** The code block between the README's `common-case` markers. */
async function commonCaseSnippet(): Promise<string> {
  const readme = await readFile(join(root, "README.md"), "utf8");
  const marked = /<!-- common-case:start -->\s*```ts\n([\s\S]*?)```\s*<!-- common-case:end -->/.exec(readme);
  if (!marked?.[1]) throw new Error("README.md has no ```ts block between <!-- common-case:start --> and <!-- common-case:end -->");
  return marked[1];
}

afterAll(() => rm(snippetDir, { recursive: true, force: true }));

describe("the README's common case", () => {
  it("is five lines of code after its import", async () => {
    const lines = (await commonCaseSnippet()).split("\n").filter((line) => line.trim() !== "" && !line.startsWith("import "));
    expect(lines).toHaveLength(5);
  });

  it("type-checks strictly and runs against the real server: the approval is answered, the tool called, the text streamed", async () => {
    await mkdir(snippetDir, { recursive: true });
    await writeFile(join(snippetDir, "common-case.mts"), await commonCaseSnippet());
    await writeFile(
      join(snippetDir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noUncheckedIndexedAccess: true,
          exactOptionalPropertyTypes: true,
          target: "ES2022",
          lib: ["ES2022", "ESNext.Disposable"],
          module: "nodenext",
          moduleResolution: "nodenext",
          types: ["node"],
          skipLibCheck: false,
          outDir: "dist",
        },
        files: ["common-case.mts"],
      }),
    );
    // Type errors make tsc exit non-zero: the message lists them.
    await run(process.execPath, [tsc, "-p", snippetDir], { cwd: root }).catch((error: { stdout?: string }) => {
      throw new Error(`the README snippet does not type-check:\n${error.stdout ?? String(error)}`);
    });

    const command = reply.execCommand({ cmd: "touch approved.txt && ls", sandbox_permissions: "require_escalated", justification: "List the files" });
    const tool = reply.toolCall("today", {});
    const provider = await MockResponsesProvider.start({ script: [command, tool, reply.text("Two files here; the date is known.", { chunks: 6 })] });
    const home = await createCodexHome({ provider });
    const workspace = await mkdtemp(join(tmpdir(), "codex-rpc-readme-"));
    try {
      await writeFile(join(workspace, "notes.txt"), "codex-rpc was here\n");
      const { stdout } = await run(process.execPath, [join(snippetDir, "dist", "common-case.mjs")], {
        cwd: workspace,
        env: { ...process.env, ...home.env },
        timeout: 60_000,
      });
      expect(stdout).toBe("Two files here; the date is known.");
      // The approval callback accepted the command: the command ran, and its output reached the model.
      expect(existsSync(join(workspace, "approved.txt"))).toBe(true);
      expect(JSON.stringify(provider.requests[1]?.functionCallOutput(command.callId))).toContain("notes.txt");
      // `tools` declared the tool (experimentalApi turned on by them) and its answer reached the model.
      expect(provider.requests[0]?.toolNames()).toContain("today");
      expect(JSON.stringify(provider.requests[2]?.functionCallOutput(tool.callId))).toContain(new Date().toDateString());
    } finally {
      await provider.close();
      await home.cleanup();
      await rm(workspace, { recursive: true, force: true });
    }
  }, 120_000);
});
