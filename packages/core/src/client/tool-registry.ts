import type { JsonValue } from "@codex-rpc/protocol";
import type { DynamicToolNamespaceTool, DynamicToolSpec } from "@codex-rpc/protocol/experimental";
import { InvalidOptionError } from "../errors/errors.js";
import { isRecord } from "../util/is-record.js";
import type { StandardSchemaV1 } from "../util/standard-schema.js";
import { isStandardSchema, jsonSchemaOf } from "../util/standard-schema-json.js";
import type { DynamicTool } from "./dynamic-tools.js";
import { jsonSchemaValidator } from "./json-schema-check.js";

/** What codex 0.169.0 accepts as a tool or namespace name on `thread/start` (measured). */
const TOOL_NAME = /^[a-zA-Z0-9_-]+$/;

/** A tool with what the registry worked out once: its JSON Schema and where it lives. */
export interface RegisteredTool {
  readonly tool: DynamicTool;
  readonly namespace: string | null;
  /** `namespace.name`, or the name alone: how problems and the model's error texts name it. */
  readonly label: string;
  /** The tool's Standard Schema, else a check of its JSON Schema. */
  readonly validator: StandardSchemaV1["~standard"];
  readonly inputSchema: JsonValue;
}

/**
 * The `tools` option, checked and indexed: each tool's JSON Schema resolved (its `inputSchema`,
 * else its Standard Schema's own converter) and its validator (the Standard Schema, else a check
 * of the JSON Schema), the `dynamicTools` of `thread/start` grouped by
 * namespace, and calls looked up by namespace and name. Problems are InvalidOptionErrors, thrown
 * before anything is opened.
 */
export class ToolRegistry {
  private readonly byKey = new Map<string, RegisteredTool>();
  private readonly namespaceDescriptions = new Map<string, string>();

  constructor(tools: readonly DynamicTool[]) {
    tools.forEach((tool, index) => {
      const where = `tools[${index}]`;
      if (!isRecord(tool) || typeof tool.name !== "string" || typeof tool.handler !== "function") {
        throw new InvalidOptionError(where, "a tool needs a `name` and a `handler` function");
      }
      const namespace = this.namespaceOf(tool, where);
      const label = namespace === null ? tool.name : `${namespace}.${tool.name}`;
      if (!TOOL_NAME.test(tool.name)) throw new InvalidOptionError(where, `tool name "${tool.name}" must match ${TOOL_NAME.source} (codex requires it)`);
      const key = keyOf(namespace, tool.name);
      if (this.byKey.has(key)) throw new InvalidOptionError(where, `a second tool "${label}": names must be unique within a namespace`);
      const standard = validatorOf(tool, where);
      const inputSchema = inputSchemaOf(tool, standard, where);
      // Without a Standard Schema, the JSON Schema itself is checked (the keywords that say what a value is).
      this.byKey.set(key, { tool, namespace, label, validator: standard ?? jsonSchemaValidator(inputSchema), inputSchema });
    });
  }

  get size(): number {
    return this.byKey.size;
  }

  /** The tool a call names (`namespace` null for a tool outside any namespace). */
  find(namespace: string | null | undefined, name: string): RegisteredTool | undefined {
    return this.byKey.get(keyOf(namespace ?? null, name));
  }

  /** Every tool's label, for the model when it names one that does not exist. */
  labels(): string[] {
    return [...this.byKey.values()].map((entry) => entry.label);
  }

  /** The `dynamicTools` of `thread/start`: tools outside a namespace, then one entry per namespace, in the order given. */
  specs(): DynamicToolSpec[] {
    const specs: DynamicToolSpec[] = [];
    const namespaces = new Map<string, DynamicToolNamespaceTool[]>();
    for (const { tool, namespace, inputSchema } of this.byKey.values()) {
      const fn = { type: "function" as const, name: tool.name, description: tool.description ?? "", inputSchema };
      if (namespace === null) {
        specs.push(fn);
        continue;
      }
      let members = namespaces.get(namespace);
      if (!members) {
        members = [];
        namespaces.set(namespace, members);
        specs.push({ type: "namespace", name: namespace, description: this.namespaceDescriptions.get(namespace) ?? `Tools of ${namespace}.`, tools: members });
      }
      members.push(fn);
    }
    return specs;
  }

  private namespaceOf(tool: DynamicTool, where: string): string | null {
    const given = tool.namespace;
    if (given === undefined || given === null) return null;
    const name = typeof given === "string" ? given : given.name;
    if (typeof name !== "string" || !TOOL_NAME.test(name)) throw new InvalidOptionError(where, `namespace "${String(name)}" must match ${TOOL_NAME.source}`);
    if (name.startsWith("mcp__")) throw new InvalidOptionError(where, `namespace "${name}": codex reserves mcp__ for MCP servers`);
    const description = typeof given === "string" ? undefined : given.description;
    if (description !== undefined) {
      const known = this.namespaceDescriptions.get(name);
      if (known !== undefined && known !== description) throw new InvalidOptionError(where, `namespace "${name}" is described twice, differently`);
      this.namespaceDescriptions.set(name, description);
    }
    return name;
  }
}

function keyOf(namespace: string | null, name: string): string {
  return namespace === null ? `\u0000${name}` : `${namespace}\u0000${name}`;
}

function validatorOf(tool: DynamicTool, where: string): StandardSchemaV1["~standard"] | undefined {
  if (tool.schema === undefined) return undefined;
  if (!isStandardSchema(tool.schema)) {
    throw new InvalidOptionError(where, "`schema` is not a Standard Schema (no `~standard.validate`); put a plain JSON Schema in `inputSchema`");
  }
  return tool.schema["~standard"];
}

/** The JSON Schema codex gets: `inputSchema`, else the Standard Schema's own conversion of its input type. */
function inputSchemaOf(tool: DynamicTool, validator: StandardSchemaV1["~standard"] | undefined, where: string): JsonValue {
  if (tool.inputSchema !== undefined) return objectSchema(tool.inputSchema, where);
  if (!validator) throw new InvalidOptionError(where, "a tool needs `schema` (a Standard Schema) or `inputSchema` (JSON Schema)");
  // The rule turns' `outputSchema` follows too: the schema's input type, draft 2020-12.
  const converted = jsonSchemaOf(tool.schema as StandardSchemaV1);
  if (typeof converted === "string") throw new InvalidOptionError(where, `${converted}; or give \`inputSchema\``);
  // codex drops `$schema` (and keywords it does not model) before the model sees the schema.
  const { $schema: _dialect, ...schema } = converted;
  return objectSchema(schema as JsonValue, where);
}

/**
 * `schema` if it can describe the arguments of a call: codex always sends them as one JSON object
 * and hands the schema to the model as the function's parameters, which must be an object schema.
 * A tool declared with a string or array schema could never be called: refused here, not found out
 * by the first turn that offers it.
 */
function objectSchema(schema: JsonValue, where: string): JsonValue {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    throw new InvalidOptionError(where, `a tool's arguments schema must be a JSON Schema object, got ${Array.isArray(schema) ? "an array" : String(schema)}`);
  const type = (schema as { type?: unknown }).type;
  const types = Array.isArray(type) ? type : type === undefined ? ["object"] : [type];
  if (!types.includes("object"))
    throw new InvalidOptionError(
      where,
      `a tool's arguments schema must describe an object (codex sends a call's arguments as one JSON object), got type ${JSON.stringify(type)}`,
    );
  return schema;
}
