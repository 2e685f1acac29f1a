import { CodegenError } from "../util/codegen-error.js";
import { isSchemaObject, type JsonSchema, type JsonSchemaObject } from "../read/json-schema.js";
import { resolveResults, type ResolvedResult, type ResultQuery } from "./result-resolution.js";
import type { SchemaBundle, SchemaDefinition } from "../read/schema-bundle.js";

export type MethodKind = "clientRequest" | "serverRequest" | "serverNotification" | "clientNotification";

/** The root union that lists each kind's methods, and the map the emitter names after it. */
export const METHOD_UNIONS: Readonly<Record<MethodKind, string>> = {
  clientRequest: "ClientRequest",
  serverRequest: "ServerRequest",
  serverNotification: "ServerNotification",
  clientNotification: "ClientNotification",
};

export interface ProtocolMethod {
  readonly kind: MethodKind;
  readonly method: string;
  /** The union member, e.g. `#/definitions/ClientRequest/oneOf/3`. */
  readonly variantPointer: string;
  readonly description: string | undefined;
  /** The `params` subschema and where it is; `undefined` when the message has no params at all. */
  readonly params: { readonly schema: JsonSchema; readonly pointer: string; readonly required: boolean } | undefined;
  /** The definition the params name (`$ref`, or `anyOf [$ref, null]`), when there is one. */
  readonly paramsDefinition: SchemaDefinition | undefined;
  /** Requests only: the result definition and how it was found (`definition` is undefined when `unknown`). */
  readonly result: ResolvedResult | undefined;
}

export interface ProtocolMethods {
  readonly byKind: Readonly<Record<MethodKind, readonly ProtocolMethod[]>>;
  readonly all: readonly ProtocolMethod[];
  /** Results nothing resolved (typed `unknown`), and result-map entries that named no definition. */
  readonly warnings: readonly string[];
}

export interface ReadProtocolMethodsOptions {
  /** Method → result definition name; consulted before every other rule (result-resolution.ts). */
  readonly resultMap?: Readonly<Record<string, string>>;
  /** Replaces RESULT_TABLE (`{}` shows what the other rules find on their own). */
  readonly resultTable?: Readonly<Record<string, string>>;
}

/**
 * Lists every method of the four root unions and resolves each request's result. Never fails on
 * a result: one no rule resolves is typed `unknown`, with a warning naming the method.
 */
export function readProtocolMethods(bundle: SchemaBundle, options: ReadProtocolMethodsOptions = {}): ProtocolMethods {
  const queries = new Map<string, ResultQuery>();
  const byKind = {} as Record<MethodKind, ProtocolMethod[]>;
  for (const kind of Object.keys(METHOD_UNIONS) as MethodKind[]) {
    const union = bundle.rootDefinition(METHOD_UNIONS[kind]);
    const members = unionMembers(union, bundle.file);
    const seen = new Set<string>();
    byKind[kind] = members.map(({ schema, pointer }) => {
      const method = readMethodName(schema, pointer, bundle.file);
      if (seen.has(method)) {
        throw new CodegenError("UNSUPPORTED_SCHEMA", `method "${method}" appears twice in ${union.name}`, {
          file: bundle.file,
          pointer,
        });
      }
      seen.add(method);
      const paramsSchema = schema.properties?.params;
      const params =
        paramsSchema === undefined
          ? undefined
          : {
              schema: paramsSchema,
              pointer: `${pointer}/properties/params`,
              required: schema.required?.includes("params") ?? false,
            };
      const paramsDefinition = params ? namedDefinition(params.schema, params.pointer, bundle) : undefined;
      if (kind === "clientRequest" || kind === "serverRequest") {
        queries.set(pointer, { union: METHOD_UNIONS[kind], method, paramsDefinition });
      }
      const description = typeof schema.description === "string" ? schema.description : undefined;
      return { kind, method, variantPointer: pointer, description, params, paramsDefinition, result: undefined };
    });
  }
  const { results, warnings } = resolveResults(bundle, [...queries.values()], options.resultMap, options.resultTable);
  const withResults = (list: readonly ProtocolMethod[]) =>
    list.map((m) => {
      const query = queries.get(m.variantPointer);
      return query ? { ...m, result: results.get(query) } : m;
    });
  const resolved = Object.fromEntries(Object.entries(byKind).map(([kind, list]) => [kind, withResults(list)])) as Record<MethodKind, ProtocolMethod[]>;
  return { byKind: resolved, all: Object.values(resolved).flat(), warnings };
}

function unionMembers(union: SchemaDefinition, file: string): { schema: JsonSchemaObject; pointer: string }[] {
  const schema = union.schema;
  const keyword = isSchemaObject(schema) ? (schema.oneOf ? "oneOf" : schema.anyOf ? "anyOf" : undefined) : undefined;
  const members = keyword && isSchemaObject(schema) ? schema[keyword] : undefined;
  if (!keyword || !Array.isArray(members)) {
    throw new CodegenError("UNSUPPORTED_SCHEMA", `${union.name} must be a oneOf/anyOf of messages`, {
      file,
      pointer: union.pointer,
    });
  }
  return members.map((member, index) => {
    const pointer = `${union.pointer}/${keyword}/${index}`;
    if (!isSchemaObject(member)) {
      throw new CodegenError("UNSUPPORTED_SCHEMA", `${union.name} member is not a message object`, { file, pointer });
    }
    return { schema: member, pointer };
  });
}

function readMethodName(schema: JsonSchemaObject, pointer: string, file: string): string {
  const methodSchema = schema.properties?.method;
  const values = isSchemaObject(methodSchema) ? (methodSchema.enum ?? (methodSchema.const !== undefined ? [methodSchema.const] : undefined)) : undefined;
  if (values?.length !== 1 || typeof values[0] !== "string") {
    throw new CodegenError("UNSUPPORTED_SCHEMA", "a message must fix `method` to one string (enum of one value)", {
      file,
      pointer: `${pointer}/properties/method`,
    });
  }
  return values[0];
}

/** The definition a params schema names: `{$ref}` or `{anyOf: [{$ref}, {type: null}]}`. */
function namedDefinition(schema: JsonSchema, pointer: string, bundle: SchemaBundle): SchemaDefinition | undefined {
  if (!isSchemaObject(schema)) return undefined;
  if (typeof schema.$ref === "string") return bundle.resolve(schema.$ref, `${pointer}/$ref`);
  const branches = schema.anyOf ?? schema.oneOf;
  if (!branches) return undefined;
  const refs = branches.flatMap((branch, index) => (isSchemaObject(branch) && typeof branch.$ref === "string" ? [{ ref: branch.$ref, index }] : []));
  const onlyNullBesides = branches.every((branch) => isSchemaObject(branch) && (typeof branch.$ref === "string" || branch.type === "null"));
  if (refs.length !== 1 || !onlyNullBesides) return undefined;
  const [{ ref, index }] = refs as [{ ref: string; index: number }];
  const keyword = schema.anyOf ? "anyOf" : "oneOf";
  return bundle.resolve(ref, `${pointer}/${keyword}/${index}/$ref`);
}
