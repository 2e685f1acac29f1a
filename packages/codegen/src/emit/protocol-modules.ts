import { METHOD_UNIONS, type MethodKind, type ProtocolMethod, type ProtocolMethods } from "../analyse/protocol-methods.js";
import { type TypeEmitter, withDoc } from "./type-emitter.js";
import { frozen, string, type ModuleNode } from "../nodes/module-nodes.js";
import type { DeclarationFile } from "../nodes/source-file.js";
import { keyword, literal, property, reference, type Declaration, type PropertySignature, type TypeNode } from "../nodes/type-nodes.js";

/** The runtime array of each kind's method names. */
export const METHOD_ARRAYS: Readonly<Record<MethodKind, string>> = {
  clientRequest: "CLIENT_REQUEST_METHODS",
  serverRequest: "SERVER_REQUEST_METHODS",
  serverNotification: "SERVER_NOTIFICATION_METHODS",
  clientNotification: "CLIENT_NOTIFICATION_METHODS",
};

export interface ProtocolModules {
  /** Every definition, as types only. */
  "types.d.ts": DeclarationFile;
  /** Method → params/result maps, method-name unions and the declared runtime arrays. */
  "methods.d.ts": DeclarationFile;
  /** The runtime arrays of method names. */
  "methods.js": ModuleNode;
}

/** The types and method maps of one bundle, as nodes. */
export function emitProtocolModules(methods: ProtocolMethods, emitter: TypeEmitter): ProtocolModules {
  const mapDeclarations: Declaration[] = [{ kind: "importTypeNamespace", alias: "T", from: "./types.js" }];
  for (const kind of Object.keys(METHOD_UNIONS) as MethodKind[]) {
    const union = METHOD_UNIONS[kind];
    const entries = methods.byKind[kind].map((method) => mapEntry(method, emitter));
    const methodNames = methods.byKind[kind].map((m) => literal(m.method));
    mapDeclarations.push(
      withDoc<Declaration>(
        { kind: "interface", name: `${union}Map`, members: entries },
        `Every ${union} method → its ${kind.endsWith("Request") ? "params and result" : "params"}.`,
      ),
      { kind: "typeAlias", name: `${union}Method`, type: { kind: "operator", operator: "keyof", type: reference(`${union}Map`) } },
      {
        kind: "declareConst",
        name: METHOD_ARRAYS[kind],
        type: { kind: "operator", operator: "readonly", type: { kind: "tuple", elements: methodNames } },
      },
    );
  }
  const arrays: ModuleNode = {
    kind: "module",
    paragraphs: (Object.keys(METHOD_ARRAYS) as MethodKind[]).map((kind) => [
      {
        kind: "exportConst",
        name: METHOD_ARRAYS[kind],
        value: frozen({ kind: "array", elements: methods.byKind[kind].map((m) => string(m.method)) }),
      },
    ]),
  };
  return {
    "types.d.ts": { kind: "declarations", declarations: emitter.declarations() },
    "methods.d.ts": { kind: "declarations", declarations: mapDeclarations },
    "methods.js": arrays,
  };
}

function mapEntry(method: ProtocolMethod, emitter: TypeEmitter): PropertySignature {
  const params = emitter.paramsOf(method, "T");
  const paramsType: TypeNode = params.optional ? { kind: "union", members: [params.type, keyword("undefined")].filter(uniqueUndefined()) } : params.type;
  const members = [property("params", paramsType)];
  if (method.result) {
    const definition = method.result.definition;
    // No rule named the result (a warning said so): `unknown` makes callers check before use.
    members.push(property("result", definition ? emitter.referenceTo(definition, "T") : keyword("unknown")));
  }
  return withDoc(property(method.method, { kind: "typeLiteral", members }, { quoted: true }), method.description);
}

/** Drops a second `undefined` when the params type is already `undefined`. */
function uniqueUndefined(): (type: TypeNode) => boolean {
  let seen = false;
  return (type) => {
    if (type.kind !== "keyword" || type.keyword !== "undefined") return true;
    if (seen) return false;
    seen = true;
    return true;
  };
}
