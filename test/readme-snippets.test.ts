// Every ```ts block of the READMEs (the root one and each package's) type-checks as a reader
// would compile it: strict, nodenext, against the workspace packages. Each block becomes one file
// in a git-ignored folder inside the repository (so `@codex-rpc/*` resolve to the workspace
// packages), and one `tsc -p` run checks them all; an error is reported at its README line.
//
// A block is a program unless a marker on the line before its fence says otherwise:
// - `<!-- snippet: declarations -->`: an API listing (`class X { method(): T; }`), not code to run:
//   it is written as a `.d.ts` file, its top-level `class`/`const`/`function` lines made ambient
//   (`declare ` put before them, on the same line), and checked as declarations;
// - `<!-- snippet: unchecked (reason) -->`: not checked at all (none today).
// Fragments say what they assume with visible `declare const x: T;` lines at their top.
import { execFile } from "node:child_process";
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const snippetDir = join(root, "test", ".readme-snippets-all");
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");

type Kind = "program" | "declarations" | "unchecked";
interface Snippet {
  readme: string; // relative to the root
  fenceLine: number; // 1-based line of the ```ts fence
  kind: Kind;
  file: string; // the extracted file's name
  code: string;
}

function readmes(): string[] {
  const packages = readdirSync(join(root, "packages"))
    .map((name) => `packages/${name}/README.md`)
    .filter((path) => existsSync(join(root, path)))
    .sort();
  return ["README.md", ...packages];
}

function snippets(): Snippet[] {
  const found: Snippet[] = [];
  for (const readme of readmes()) {
    const lines = readFileSync(join(root, readme), "utf8").split("\n");
    const stem = readme === "README.md" ? "root" : readme.split("/")[1]!;
    let index = 0;
    for (let i = 0; i < lines.length; i++) {
      if (lines[i] !== "```ts") continue;
      const end = lines.indexOf("```", i + 1);
      if (end < 0) throw new Error(`${readme}:${i + 1}: the \`\`\`ts block is never closed`);
      let previous = i - 1;
      while (previous >= 0 && lines[previous]!.trim() === "") previous--;
      const marker = /^<!-- snippet: (declarations|unchecked)\b.*-->$/.exec(lines[previous]?.trim() ?? "");
      const kind: Kind = (marker?.[1] as Kind | undefined) ?? "program";
      index++;
      let code = lines.slice(i + 1, end);
      if (kind === "declarations") code = code.map((line) => line.replace(/^(?=(?:class|const|let|function|enum|namespace|abstract class) )/, "declare "));
      found.push({ readme, fenceLine: i + 1, kind, file: `${stem}-${index}${kind === "declarations" ? ".d.ts" : ".ts"}`, code: `${code.join("\n")}\n` });
      i = end;
    }
  }
  return found;
}

afterAll(() => rm(snippetDir, { recursive: true, force: true }));

describe("the READMEs' ts code blocks", () => {
  const all = snippets();

  it("are found, and few are left unchecked", () => {
    expect(all.length).toBeGreaterThanOrEqual(18);
    expect(all.filter(({ kind }) => kind === "unchecked").length).toBeLessThanOrEqual(2);
  });

  it("type-check strictly, each as a reader compiles it (errors at their README lines)", async () => {
    await rm(snippetDir, { recursive: true, force: true });
    await mkdir(join(snippetDir, "codex-protocol", "stable"), { recursive: true });
    const checked = all.filter(({ kind }) => kind !== "unchecked");
    for (const snippet of checked) await writeFile(join(snippetDir, snippet.file), snippet.code);
    // The root README imports the module `codex-rpc-gen` writes into the reader's project; the
    // published `@codex-rpc/protocol` is that very module, generated from the same schemas.
    await writeFile(join(snippetDir, "codex-protocol", "stable", "index.ts"), 'export * from "@codex-rpc/protocol";\n');
    await writeFile(join(snippetDir, "package.json"), JSON.stringify({ private: true, type: "module" }));
    await writeFile(
      join(snippetDir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: "ES2022",
          lib: ["ES2022", "DOM", "ESNext.Disposable"],
          module: "nodenext",
          moduleResolution: "nodenext",
          types: ["node"],
          skipLibCheck: false, // or the `.d.ts` listings go unchecked
          noEmit: true,
        },
        files: checked.map(({ file }) => file),
      }),
    );
    const output = await run(process.execPath, [tsc, "-p", snippetDir, "--pretty", "false"], { cwd: root }).then(
      () => "",
      (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ""}${error.stderr ?? ""}` || String(error),
    );
    // `root-2.ts(5,7): error TS2322: …` → `README.md:66:7 (root-2.ts) error TS2322: …`
    const located = output
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => {
        const match = /^(?:.*[\\/])?([\w.-]+\.ts)\((\d+),(\d+)\): (.*)$/.exec(line);
        const snippet = match && checked.find(({ file }) => file === match[1]);
        return snippet ? `${snippet.readme}:${snippet.fenceLine + Number(match[2])}:${match[3]} (${snippet.file}) ${match[4]}` : line;
      });
    expect(located, `README code blocks that do not type-check:\n${located.join("\n")}`).toEqual([]);
  }, 120_000);
});

describe("the demo (examples/demo.mjs)", () => {
  it("is type-checked by `pnpm typecheck`: `// @ts-check`, under the root tsconfig.json that includes examples", () => {
    expect(
      readFileSync(join(root, "examples", "demo.mjs"), "utf8")
        .split("\n")
        .slice(0, 2),
    ).toContainEqual(expect.stringMatching(/^\/\/ @ts-check\b/));
    const config = JSON.parse(readFileSync(join(root, "tsconfig.json"), "utf8")) as { include: string[]; compilerOptions: { allowJs?: boolean } };
    expect(config.include).toContain("examples");
    expect(config.compilerOptions.allowJs).toBe(true);
  });
});
