import ts from "typescript";
import { METHOD_UNIONS, type MethodKind, type ProtocolMethod, type ProtocolMethods } from "./protocol-methods.js";
import { TypeEmitter, withDoc } from "./type-emitter.js";

const f = ts.factory;

/** The runtime array of each kind's method names. */
export const METHOD_ARRAYS: Readonly<Record<MethodKind, string>> = {
  clientRequest: "CLIENT_REQUEST_METHODS",
  serverRequest: "SERVER_REQUEST_METHODS",
  serverNotification: "SERVER_NOTIFICATION_METHODS",
  clientNotification: "CLIENT_NOTIFICATION_METHODS",
};

export interface ProtocolModules {
  /** Every definition, as types only. */
  "types.d.ts": string;
  /** Method → params/result maps, method-name unions and the declared runtime arrays. */
  "methods.d.ts": string;
  /** The runtime arrays of method names. */
  "methods.js": string;
}

/** Prints the types and method maps of one bundle. */
export function emitProtocolModules(
  methods: ProtocolMethods,
  emitter: TypeEmitter,
  header: string,
): ProtocolModules {
  const types = printStatements(emitter.declarations());

  const mapStatements: ts.Statement[] = [
    f.createImportDeclaration(
      undefined,
      f.createImportClause(ts.SyntaxKind.TypeKeyword, undefined, f.createNamespaceImport(f.createIdentifier("T"))),
      f.createStringLiteral("./types.js"),
    ),
  ];
  for (const kind of Object.keys(METHOD_UNIONS) as MethodKind[]) {
    const union = METHOD_UNIONS[kind];
    const entries = methods.byKind[kind].map((method) => mapEntry(method, emitter));
    mapStatements.push(
      withDoc(
        f.createInterfaceDeclaration([exported()], `${union}Map`, undefined, undefined, entries),
        `Every ${union} method → its ${kind.endsWith("Request") ? "params and result" : "params"}.`,
      ),
      f.createTypeAliasDeclaration(
        [exported()],
        `${union}Method`,
        undefined,
        f.createTypeOperatorNode(ts.SyntaxKind.KeyOfKeyword, f.createTypeReferenceNode(`${union}Map`)),
      ),
      f.createVariableStatement(
        [exported(), f.createModifier(ts.SyntaxKind.DeclareKeyword)],
        f.createVariableDeclarationList(
          [
            f.createVariableDeclaration(
              METHOD_ARRAYS[kind],
              undefined,
              f.createTypeOperatorNode(
                ts.SyntaxKind.ReadonlyKeyword,
                f.createTupleTypeNode(methods.byKind[kind].map((m) => f.createLiteralTypeNode(f.createStringLiteral(m.method)))),
              ),
            ),
          ],
          ts.NodeFlags.Const,
        ),
      ),
    );
  }
  const arrays = (Object.keys(METHOD_ARRAYS) as MethodKind[])
    .map((kind) => {
      const names = methods.byKind[kind].map((m) => `  ${JSON.stringify(m.method)},`).join("\n");
      return `export const ${METHOD_ARRAYS[kind]} = Object.freeze([\n${names}\n]);\n`;
    })
    .join("\n");
  return {
    "types.d.ts": header + "\n" + types,
    "methods.d.ts": header + "\n" + printStatements(mapStatements),
    "methods.js": header + "\n" + arrays,
  };
}

function mapEntry(method: ProtocolMethod, emitter: TypeEmitter): ts.TypeElement {
  const params = emitter.paramsOf(method, "T");
  const paramsType = params.optional
    ? f.createUnionTypeNode([params.type, f.createKeywordTypeNode(ts.SyntaxKind.UndefinedKeyword)].filter(uniqueUndefined()))
    : params.type;
  const members: ts.TypeElement[] = [f.createPropertySignature(undefined, "params", undefined, paramsType)];
  if (method.result) {
    members.push(f.createPropertySignature(undefined, "result", undefined, emitter.referenceTo(method.result.definition, "T")));
  }
  const entry = f.createPropertySignature(undefined, f.createStringLiteral(method.method), undefined, f.createTypeLiteralNode(members));
  return withDoc(entry, method.description);
}

/** Drops a second `undefined` when the params type is already `undefined`. */
function uniqueUndefined(): (type: ts.TypeNode) => boolean {
  let seen = false;
  return (type) => {
    if (type.kind !== ts.SyntaxKind.UndefinedKeyword) return true;
    if (seen) return false;
    seen = true;
    return true;
  };
}

function exported(): ts.ModifierLike {
  return f.createModifier(ts.SyntaxKind.ExportKeyword);
}

const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed, removeComments: false });
const printTarget = ts.createSourceFile("generated.d.ts", "", ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);

export function printStatements(statements: readonly ts.Statement[]): string {
  return statements.map((statement) => printer.printNode(ts.EmitHint.Unspecified, statement, printTarget)).join("\n\n") + "\n";
}
