import { access, call, frozen, identifier, string, type Expression, type ModuleNode } from "../nodes/module-nodes.js";
import { literal, property, reference, type TypeNode } from "../nodes/type-nodes.js";
import type { SchemaFlavor } from "../read/schema-bundle.js";

/** The runtime arrays `protocol` carries, by the property that holds each. */
const METHOD_ARRAY_PROPERTIES = [
  ["clientRequestMethods", "CLIENT_REQUEST_METHODS"],
  ["serverRequestMethods", "SERVER_REQUEST_METHODS"],
  ["serverNotificationMethods", "SERVER_NOTIFICATION_METHODS"],
] as const;

export interface IndexModules {
  /** The protocol's version, flavor and `protocol` value; re-exports the method arrays. */
  "index.js": ModuleNode;
  /** Their declarations, with `ProtocolTypes`; re-exports every type and method map. */
  "index.d.ts": ModuleNode;
}

/** The entry of one flavor's output: what `@codex-rpc/protocol` and a generated package export. */
export function emitIndexModules(codexVersion: string, flavor: SchemaFlavor): IndexModules {
  return { "index.js": indexJs(codexVersion, flavor), "index.d.ts": indexDts(codexVersion, flavor) };
}

function indexJs(codexVersion: string, flavor: SchemaFlavor): ModuleNode {
  // () => import("./validators.js").then((module) => module.loadValidators())
  const loadValidators: Expression = {
    kind: "arrow",
    parameters: [],
    body: call(
      { kind: "propertyAccess", expression: call(identifier("import"), string("./validators.js")), name: "then" },
      { kind: "arrow", parameters: ["module"], body: call(access("module.loadValidators")) },
    ),
  };
  return {
    kind: "module",
    paragraphs: [
      [{ kind: "import", typeOnly: false, names: METHOD_ARRAY_PROPERTIES.map(([, array]) => array).sort(), from: "./methods.js", multiline: false }],
      [{ kind: "exportAll", typeOnly: false, from: "./methods.js" }],
      [
        { kind: "exportConst", name: "PROTOCOL_VERSION", value: string(codexVersion) },
        { kind: "exportConst", name: "PROTOCOL_FLAVOR", value: string(flavor) },
      ],
      [
        {
          kind: "exportConst",
          name: "protocol",
          comment: "The validators load on demand, so a bundle that never validates does not carry them.",
          value: frozen({
            kind: "object",
            properties: [
              { name: "version", value: identifier("PROTOCOL_VERSION") },
              { name: "flavor", value: identifier("PROTOCOL_FLAVOR") },
              ...METHOD_ARRAY_PROPERTIES.map(([name, array]) => ({ name, value: identifier(array) })),
              { name: "loadValidators", value: loadValidators },
            ],
          }),
        },
      ],
    ],
  };
}

function indexDts(codexVersion: string, flavor: SchemaFlavor): ModuleNode {
  const maps = [
    ["clientRequests", "ClientRequestMap"],
    ["serverRequests", "ServerRequestMap"],
    ["serverNotifications", "ServerNotificationMap"],
    ["clientNotifications", "ClientNotificationMap"],
  ] as const;
  const fromMethods = [...METHOD_ARRAY_PROPERTIES.map(([, array]) => array), ...maps.map(([, map]) => map)].sort();
  const readonly = (name: string, type: TypeNode) => property(name, type, { readonly: true });
  return {
    kind: "module",
    paragraphs: [
      [
        { kind: "import", typeOnly: true, names: fromMethods, from: "./methods.js", multiline: true },
        { kind: "import", typeOnly: true, names: ["ProtocolValidators"], from: "./validators.js", multiline: false },
      ],
      [
        { kind: "exportAll", typeOnly: true, from: "./types.js" },
        { kind: "exportAll", typeOnly: false, from: "./methods.js" },
      ],
      [
        {
          kind: "declareConst",
          name: "PROTOCOL_VERSION",
          type: literal(codexVersion),
          docs: ["The codex version whose app-server schemas these types were generated from."],
        },
        {
          kind: "declareConst",
          name: "PROTOCOL_FLAVOR",
          type: literal(flavor),
          docs: ["Which export: `stable` (the default surface) or `experimental` (`--experimental`)."],
        },
      ],
      [
        {
          kind: "interface",
          name: "ProtocolTypes",
          members: maps.map(([name, map]) => readonly(name, reference(map))),
          docs: ["Every method of this protocol with its params and result types: what `CodexClient` is typed by."],
        },
      ],
      [
        {
          kind: "declareConst",
          name: "protocol",
          docs: [
            "This protocol as one value: pass it to `CodexClient.connect(transport, { protocol })` and the\nclient is typed by it, validates with it and knows which codex version it expects.",
          ],
          type: {
            kind: "typeLiteral",
            members: [
              readonly("version", literal(codexVersion)),
              readonly("flavor", literal(flavor)),
              ...METHOD_ARRAY_PROPERTIES.map(([name, array]) => readonly(name, { kind: "typeQuery", name: array })),
              { kind: "method", name: "loadValidators", returnType: reference("Promise", [reference("ProtocolValidators")]) },
              {
                ...property("types", reference("ProtocolTypes"), { readonly: true, optional: true }),
                docs: ["Carries the types only: never set at run time."],
              },
            ],
          },
        },
      ],
    ],
  };
}
