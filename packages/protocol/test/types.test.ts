import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const typesFile = fileURLToPath(new URL("./types/protocol-types.ts", import.meta.url));

function compile(files: string[], resolution: "NodeNext" | "Bundler"): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: resolution === "NodeNext" ? ts.ModuleKind.NodeNext : ts.ModuleKind.ESNext,
    moduleResolution: resolution === "NodeNext" ? ts.ModuleResolutionKind.NodeNext : ts.ModuleResolutionKind.Bundler,
    verbatimModuleSyntax: true,
    skipLibCheck: false,
    types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : "";
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}

describe.each(["NodeNext", "Bundler"] as const)("generated types under moduleResolution %s", (resolution) => {
  it("compile with narrowing on method and type, and reject wrong literals and misspelled properties", () => {
    expect(compile([typesFile], resolution)).toEqual([]);
  });
});
