import { createRequire } from "node:module";
import type { Ajv as AjvInstance } from "ajv";
import { CodegenError } from "../util/codegen-error.js";
import { NUMBER_FORMATS, NUMBER_FORMATS_IDENTIFIER, numberFormatCheck, numberFormatsSource } from "./number-formats.js";
import type { MethodKind, ProtocolMethod, ProtocolMethods } from "../analyse/protocol-methods.js";
import { call, frozen, identifier, type Expression, type ModuleNode, type Statement } from "../nodes/module-nodes.js";
import { literal, reference, type TypeNode } from "../nodes/type-nodes.js";
import type { SchemaBundle } from "../read/schema-bundle.js";
import { VALIDATORS_ENTRY_DTS, VALIDATORS_ENTRY_JS } from "./validator-loaders.js";

// ajv (CommonJS) is loaded on first use, so generating types alone never loads it (~10 MiB).
const require = createRequire(import.meta.url);
let ajvModules:
  | {
      Ajv: typeof AjvInstance;
      standaloneCode: typeof import("ajv/dist/standalone/index.js").default;
      Name: typeof import("ajv/dist/compile/codegen/index.js").Name;
    }
  | undefined;
function loadAjv(): NonNullable<typeof ajvModules> {
  ajvModules ??= {
    Ajv: (require("ajv") as typeof import("ajv")).Ajv,
    standaloneCode: (require("ajv/dist/standalone/index.js") as typeof import("ajv/dist/standalone/index.js")).default,
    Name: (require("ajv/dist/compile/codegen/index.js") as typeof import("ajv/dist/compile/codegen/index.js")).Name,
  };
  return ajvModules;
}

const SCHEMA_ID = "codex";

/** The validator of a result no rule resolved (typed `unknown`). */
const ANYTHING = "anything";
const ANYTHING_SOURCE = [
  "/** A result whose type the schemas do not name (typed `unknown`): every value passes. */",
  "function anything() {",
  "  anything.errors = null;",
  "  return true;",
  "}",
  "",
];

/** One table of a chunk: method → the validator of its params or of its result. */
interface ValidatorTable {
  readonly name: string;
  readonly kind: MethodKind;
  readonly part: "params" | "result";
}

/**
 * The validators come in two chunks, by direction, each a standalone ES module loaded only when
 * asked for: what the client receives (the checks that protect it) and what it sends. One module
 * of everything took 34 ms to load; parsing is what costs, so nobody should parse what they skip.
 */
export const VALIDATOR_CHUNKS = {
  incoming: [
    { name: "serverNotificationParams", kind: "serverNotification", part: "params" },
    { name: "serverRequestParams", kind: "serverRequest", part: "params" },
    { name: "clientRequestResults", kind: "clientRequest", part: "result" },
  ],
  outgoing: [
    { name: "clientRequestParams", kind: "clientRequest", part: "params" },
    { name: "clientNotificationParams", kind: "clientNotification", part: "params" },
    { name: "serverRequestResults", kind: "serverRequest", part: "result" },
  ],
} as const satisfies Record<string, readonly ValidatorTable[]>;

const MAP_OF: Readonly<Record<MethodKind, string>> = {
  clientRequest: "ClientRequestMap",
  serverRequest: "ServerRequestMap",
  serverNotification: "ServerNotificationMap",
  clientNotification: "ClientNotificationMap",
};

/**
 * Precompiles one validator per method's params and per result into standalone ES modules (no ajv
 * at run time), in tables keyed by method so a caller switches on `method` first and never
 * validates a message against a whole union. `validators.js` itself holds only the loaders.
 */
export function* emitValidatorModules(bundle: SchemaBundle, methods: ProtocolMethods): Generator<[string, ModuleNode]> {
  yield ["validators.js", VALIDATORS_ENTRY_JS];
  yield ["validators.d.ts", VALIDATORS_ENTRY_DTS];
  // One chunk at a time, on demand: a chunk's nodes hold megabytes of ajv's code, so the caller
  // prints and drops each before the next is compiled.
  for (const [chunk, tables] of Object.entries(VALIDATOR_CHUNKS)) {
    yield [`validators/${chunk}.js`, chunkJs(bundle, methods, tables)];
    yield [`validators/${chunk}.d.ts`, chunkDts(tables)];
  }
}

function chunkJs(bundle: SchemaBundle, methods: ProtocolMethods, tables: readonly ValidatorTable[]): ModuleNode {
  const { Ajv, standaloneCode, Name } = loadAjv();
  const ajv = new Ajv({
    code: { source: true, esm: true, formats: new Name(NUMBER_FORMATS_IDENTIFIER) },
    strict: false,
    allErrors: false,
    // Count string length in UTF-16 units: the alternative needs ajv's runtime helper at run time.
    unicode: false,
    // One function per referenced definition, called where it is referenced, not copied into each.
    inlineRefs: false,
    logger: false,
  });
  for (const name of Object.keys(NUMBER_FORMATS)) {
    ajv.addFormat(name, { type: "number", validate: numberFormatCheck(name) });
  }
  ajv.addSchema({ ...bundle.root, $id: SCHEMA_ID });

  const refs: Record<string, string> = {};
  let acceptsAnything = false;
  const tableStatements = tables.map((table): Statement => {
    const rows = methods.byKind[table.kind].map((method, index) => {
      const validator = table.part === "params" ? paramsValidator(method, `${table.kind}Params${index}`, refs) : resultValidator(method, refs);
      acceptsAnything ||= validator.kind === "identifier" && validator.name === ANYTHING;
      return { name: method.method, quoted: true, value: validator };
    });
    return { kind: "exportConst", name: table.name, value: frozen({ kind: "object", properties: rows }) };
  });

  let compiled: string;
  try {
    compiled = standaloneCode(ajv, refs);
  } catch (cause) {
    throw new CodegenError("UNSUPPORTED_SCHEMA", `ajv could not compile the validators: ${(cause as Error).message}`, {
      file: bundle.file,
    });
  }
  if (/\brequire\(/.test(compiled)) {
    const helper = /require\(([^)]*)\)/.exec(compiled)?.[1];
    throw new CodegenError("UNSUPPORTED_SCHEMA", `the validators would need ajv's run-time helper ${helper}; the standalone module must not import ajv`, {
      file: bundle.file,
    });
  }
  // The compiled functions are reached only through the tables below: drop ajv's own exports.
  compiled = compiled.replace(/^"use strict";/, "").replace(/export const (\w+) = (\w+);/g, "const $1 = $2;");

  const preamble: Statement[] = [
    numberFormatsSource(),
    "/** Params that may be left out: `undefined` passes, anything else goes to the schema's check. */",
    "function optional(validate) {",
    "  const check = (value) => {",
    "    if (value === undefined) {",
    "      check.errors = null;",
    "      return true;",
    "    }",
    "    const valid = validate(value);",
    "    check.errors = validate.errors;",
    "    return valid;",
    "  };",
    "  return check;",
    "}",
    "",
    "/** A message that carries no params: only `undefined` passes. */",
    "function absent(value) {",
    '  absent.errors = value === undefined ? null : [{ instancePath: "", schemaPath: "#", keyword: "absent", params: {}, message: "must have no params" }];',
    "  return value === undefined;",
    "}",
    "",
    // Only when a result is `unknown`, so that output for fully resolved schemas stays as it was.
    ...(acceptsAnything ? ANYTHING_SOURCE : []),
    compiled,
  ].map((text) => ({ kind: "verbatim", text }));
  return { kind: "module", paragraphs: [preamble, ...tableStatements.map((statement) => [statement])] };
}

function paramsValidator(method: ProtocolMethod, name: string, refs: Record<string, string>): Expression {
  if (!method.params) return identifier("absent");
  refs[name] = `${SCHEMA_ID}${method.params.pointer}`;
  return method.params.required ? identifier(name) : call(identifier("optional"), identifier(name));
}

function resultValidator(method: ProtocolMethod, refs: Record<string, string>): Expression {
  const definition = method.result?.definition;
  if (!definition) return identifier(ANYTHING); // typed `unknown`: there is no schema to check against
  const name = definition.namespace ? `${definition.namespace}_${definition.name}` : definition.name;
  refs[name] = `${SCHEMA_ID}${definition.pointer}`;
  return identifier(name);
}

/** `{ readonly [M in keyof Map]: Validator<Map[M]["params"]>; }` for each table. */
function chunkDts(tables: readonly ValidatorTable[]): ModuleNode {
  const maps = [...new Set(tables.map((t) => MAP_OF[t.kind]))].sort();
  const declarations = tables.map((t): Statement => {
    const map = reference(MAP_OF[t.kind]);
    const entry: TypeNode = {
      kind: "indexedAccess",
      objectType: { kind: "indexedAccess", objectType: map, indexType: reference("M") },
      indexType: literal(t.part),
    };
    return {
      kind: "declareConst",
      name: t.name,
      type: {
        kind: "mapped",
        readonly: true,
        parameter: "M",
        constraint: { kind: "operator", operator: "keyof", type: map },
        optional: false,
        type: reference("Validator", [entry]),
      },
    };
  });
  return {
    kind: "module",
    paragraphs: [
      [
        { kind: "import", typeOnly: true, names: maps, from: "../methods.js", multiline: false },
        { kind: "import", typeOnly: true, names: ["Validator"], from: "../validators.js", multiline: false },
      ],
      declarations,
    ],
  };
}
