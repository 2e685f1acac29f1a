import { Ajv } from "ajv";
import standaloneCodeModule from "ajv/dist/standalone/index.js";
import { Name } from "ajv/dist/compile/codegen/index.js";
import { CodegenError } from "./codegen-error.js";
import { NUMBER_FORMATS, NUMBER_FORMATS_IDENTIFIER, numberFormatCheck, numberFormatsSource } from "./number-formats.js";
import { METHOD_UNIONS, type MethodKind, type ProtocolMethods } from "./protocol-methods.js";
import type { SchemaBundle } from "./schema-bundle.js";

// CommonJS: under NodeNext the default import is the module object, whose `default` is the function.
const standaloneCode = standaloneCodeModule.default;

/** The exported table of each kind: method → its validators. */
export const VALIDATOR_TABLES: Readonly<Record<MethodKind, string>> = {
  clientRequest: "clientRequestValidators",
  serverRequest: "serverRequestValidators",
  serverNotification: "serverNotificationValidators",
  clientNotification: "clientNotificationValidators",
};

const SCHEMA_ID = "codex";

/**
 * Precompiles one validator per method's params and per result type into a standalone ES module
 * (no ajv at run time), with tables keyed by method so a caller switches on `method` first and
 * never validates a message against a whole union.
 */
export function emitValidatorModules(
  bundle: SchemaBundle,
  methods: ProtocolMethods,
  header: string,
): { "validators.js": string; "validators.d.ts": string } {
  const ajv = new Ajv({
    code: { source: true, esm: true, formats: new Name(NUMBER_FORMATS_IDENTIFIER) },
    strict: false,
    allErrors: false,
    // Count string length in UTF-16 units: the alternative needs ajv's runtime helper at run time.
    unicode: false,
    // One function per referenced definition, called where it is referenced: inlining copies a
    // definition into every place that uses it and made the module several times larger.
    inlineRefs: false,
    logger: false,
  });
  for (const name of Object.keys(NUMBER_FORMATS)) {
    ajv.addFormat(name, { type: "number", validate: numberFormatCheck(name) });
  }
  ajv.addSchema({ ...bundle.root, $id: SCHEMA_ID });

  const refs: Record<string, string> = {};
  const rows: Record<MethodKind, string[]> = { clientRequest: [], serverRequest: [], serverNotification: [], clientNotification: [] };
  for (const kind of Object.keys(METHOD_UNIONS) as MethodKind[]) {
    methods.byKind[kind].forEach((method, index) => {
      const fields: string[] = [];
      if (method.params) {
        const name = `${kind}Params${index}`;
        refs[name] = `${SCHEMA_ID}${method.params.pointer}`;
        fields.push(`params: ${method.params.required ? name : `optional(${name})`}`);
      } else {
        fields.push("params: absent");
      }
      if (method.result) {
        const name = method.result.definition.namespace
          ? `${method.result.definition.namespace}_${method.result.definition.name}`
          : method.result.definition.name;
        refs[name] = `${SCHEMA_ID}${method.result.definition.pointer}`;
        fields.push(`result: ${name}`);
      }
      rows[kind].push(`  ${JSON.stringify(method.method)}: { ${fields.join(", ")} },`);
    });
  }

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
    throw new CodegenError(
      "UNSUPPORTED_SCHEMA",
      `the validators would need ajv's run-time helper ${helper}; the standalone module must not import ajv`,
      { file: bundle.file },
    );
  }
  compiled = compiled.replace(/^"use strict";/, "");

  const tables = (Object.keys(VALIDATOR_TABLES) as MethodKind[])
    .map((kind) => `export const ${VALIDATOR_TABLES[kind]} = Object.freeze({\n${rows[kind].join("\n")}\n});\n`)
    .join("\n");
  const js = [
    header,
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
    "  absent.errors = value === undefined ? null : [{ instancePath: \"\", schemaPath: \"#\", keyword: \"absent\", params: {}, message: \"must have no params\" }];",
    "  return value === undefined;",
    "}",
    "",
    compiled,
    "",
    tables,
  ].join("\n");

  const dts = [
    header,
    'import type { ClientNotificationMap, ClientRequestMap, ServerNotificationMap, ServerRequestMap } from "./methods.js";',
    "",
    "/** One reason a value failed its schema (ajv's error object). */",
    "export interface ValidationError {",
    "  readonly instancePath: string;",
    "  readonly schemaPath: string;",
    "  readonly keyword: string;",
    "  readonly params: Readonly<Record<string, unknown>>;",
    "  readonly message?: string;",
    "}",
    "",
    "/** A precompiled check: narrows on success; `errors` says why it failed. */",
    "export interface Validator<T> {",
    "  (value: unknown): value is T;",
    "  errors?: readonly ValidationError[] | null;",
    "}",
    "",
    "export declare const clientRequestValidators: {",
    '  readonly [M in keyof ClientRequestMap]: { readonly params: Validator<ClientRequestMap[M]["params"]>; readonly result: Validator<ClientRequestMap[M]["result"]> };',
    "};",
    "export declare const serverRequestValidators: {",
    '  readonly [M in keyof ServerRequestMap]: { readonly params: Validator<ServerRequestMap[M]["params"]>; readonly result: Validator<ServerRequestMap[M]["result"]> };',
    "};",
    "export declare const serverNotificationValidators: {",
    '  readonly [M in keyof ServerNotificationMap]: { readonly params: Validator<ServerNotificationMap[M]["params"]> };',
    "};",
    "export declare const clientNotificationValidators: {",
    '  readonly [M in keyof ClientNotificationMap]: { readonly params: Validator<ClientNotificationMap[M]["params"]> };',
    "};",
    "",
  ].join("\n");
  return { "validators.js": js, "validators.d.ts": dts };
}
