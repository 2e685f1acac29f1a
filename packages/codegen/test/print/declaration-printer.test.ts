// The declaration printer promises TypeScript's printer's bytes: each form the generated files use,
// printed by both.
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { literal, property, reference, type Declaration } from "../../src/nodes/type-nodes.js";
import { printDeclarations } from "../../src/print/declaration-printer.js";

const f = ts.factory;
const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
const exported = [f.createModifier(ts.SyntaxKind.ExportKeyword)];

function typeScriptPrints(statements: ts.Statement[]): string {
  const file = ts.createSourceFile("x.ts", "", ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  return `${statements.map((statement) => printer.printNode(ts.EmitHint.Unspecified, statement, file)).join("\n\n")}\n`;
}

describe("declaration printer", () => {
  it("prints readonly properties, method signatures and typeof as TypeScript does", () => {
    const ours: Declaration = {
      kind: "interface",
      name: "Holder",
      members: [
        property("version", literal("1.0"), { readonly: true }),
        property("types", { kind: "typeQuery", name: "TYPES" }, { readonly: true, optional: true }),
        { kind: "method", name: "load", returnType: reference("Promise", [reference("Thing")]) },
      ],
    };
    const readonly = [f.createModifier(ts.SyntaxKind.ReadonlyKeyword)];
    const theirs = f.createInterfaceDeclaration(exported, "Holder", undefined, undefined, [
      f.createPropertySignature(readonly, "version", undefined, f.createLiteralTypeNode(f.createStringLiteral("1.0"))),
      f.createPropertySignature(readonly, "types", f.createToken(ts.SyntaxKind.QuestionToken), f.createTypeQueryNode(f.createIdentifier("TYPES"))),
      f.createMethodSignature(undefined, "load", undefined, undefined, [], f.createTypeReferenceNode("Promise", [f.createTypeReferenceNode("Thing")])),
    ]);
    expect(printDeclarations([ours])).toBe(typeScriptPrints([theirs]));
  });

  it("prints readonly mapped types and indexed access as TypeScript does", () => {
    const map = reference("Map");
    const ours: Declaration = {
      kind: "declareConst",
      name: "table",
      type: {
        kind: "mapped",
        readonly: true,
        parameter: "M",
        constraint: { kind: "operator", operator: "keyof", type: map },
        optional: false,
        type: reference("Validator", [
          { kind: "indexedAccess", objectType: { kind: "indexedAccess", objectType: map, indexType: reference("M") }, indexType: literal("params") },
        ]),
      },
    };
    const mapRef = f.createTypeReferenceNode("Map");
    const theirs = f.createVariableStatement(
      [...exported, f.createModifier(ts.SyntaxKind.DeclareKeyword)],
      f.createVariableDeclarationList(
        [
          f.createVariableDeclaration(
            "table",
            undefined,
            f.createMappedTypeNode(
              f.createToken(ts.SyntaxKind.ReadonlyKeyword),
              f.createTypeParameterDeclaration(undefined, "M", f.createTypeOperatorNode(ts.SyntaxKind.KeyOfKeyword, mapRef)),
              undefined,
              undefined,
              f.createTypeReferenceNode("Validator", [
                f.createIndexedAccessTypeNode(
                  f.createIndexedAccessTypeNode(mapRef, f.createTypeReferenceNode("M")),
                  f.createLiteralTypeNode(f.createStringLiteral("params")),
                ),
              ]),
              undefined,
            ),
          ),
        ],
        ts.NodeFlags.Const,
      ),
    );
    expect(printDeclarations([ours])).toBe(typeScriptPrints([theirs]));
  });
});
