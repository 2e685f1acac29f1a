import type { DynamicToolCallResponse, JsonValue } from "@codex-rpc/protocol";
import type { StandardSchemaV1 } from "../util/standard-schema.js";

/** What a tool's handler gets besides its arguments. */
export interface DynamicToolContext {
  readonly threadId: string;
  readonly turnId: string;
  readonly callId: string;
  /**
   * Aborts when the call no longer matters: its turn ended (completed, interrupted or failed: codex
   * 0.169.0 drops the call's answer then), the server withdrew the request
   * (`serverRequest/resolved`), or the connection closed.
   */
  readonly signal: AbortSignal;
}

/** What a handler returns: text for the model, or a whole response (images, `success: false`). */
export type DynamicToolOutput = string | DynamicToolCallResponse;

/** A tool namespace: its name alone, or with the description codex shows the model. */
export type DynamicToolNamespace = string | { readonly name: string; readonly description?: string };

/**
 * A tool the model may call, declared on `thread/start` and answered by this client
 * (`item/tool/call`). Give `schema` (a Standard Schema: zod, valibot, arktype, Effect Schema…) to
 * have the arguments validated and typed, `inputSchema` (JSON Schema) for what codex shows the
 * model, or both. The JSON Schema sent is `inputSchema` when given, else the one `schema` converts
 * itself to (`~standard.jsonSchema.input`, Standard JSON Schema: zod 4, arktype); a `schema`
 * without a converter needs `inputSchema`. Without `schema`, the arguments are checked against
 * `inputSchema`. Build one with `defineTool`, which infers `Args`.
 */
export interface DynamicTool<Args = unknown> {
  /** The tool's name (codex requires `^[a-zA-Z0-9_-]+$`). */
  readonly name: string;
  /** The namespace the tool is declared in; calls are matched by namespace and name. */
  readonly namespace?: DynamicToolNamespace | undefined;
  readonly description: string;
  /** Validates the arguments before the handler runs; the handler gets its output. */
  readonly schema?: StandardSchemaV1<unknown, Args> | undefined;
  /** The JSON Schema of the arguments sent to codex (the model sees it). */
  readonly inputSchema?: JsonValue | undefined;
  /**
   * Runs the call. Arguments that fail `schema` (or, without one, `inputSchema`) never reach it:
   * the model gets the issues as the tool's failed output. What it throws goes to the model as a
   * failure too (secrets redacted).
   */
  handler(args: Args, context: DynamicToolContext): DynamicToolOutput | Promise<DynamicToolOutput>;
}

/** A tool declared with a Standard Schema: `args` is the schema's output type. */
export interface SchemaToolDefinition<S extends StandardSchemaV1> {
  readonly name: string;
  readonly namespace?: DynamicToolNamespace | undefined;
  readonly description: string;
  readonly schema: S;
  /** Needed when `schema` has no JSON Schema converter (`~standard.jsonSchema`); wins over it otherwise. */
  readonly inputSchema?: JsonValue | undefined;
  handler(args: StandardSchemaV1.InferOutput<S>, context: DynamicToolContext): DynamicToolOutput | Promise<DynamicToolOutput>;
}

/**
 * A tool declared with JSON Schema alone: the arguments are checked against the schema's keywords;
 * `args` is `Args` (default `unknown`), your promise that it agrees with the schema.
 */
export interface JsonSchemaToolDefinition<Args> {
  readonly name: string;
  readonly namespace?: DynamicToolNamespace | undefined;
  readonly description: string;
  readonly schema?: undefined;
  readonly inputSchema: JsonValue;
  handler(args: Args, context: DynamicToolContext): DynamicToolOutput | Promise<DynamicToolOutput>;
}

/**
 * Declares a tool with its handler's `args` inferred: from `schema` (a Standard Schema; the
 * arguments are validated against it first), or the `Args` you name for a plain JSON Schema
 * (`defineTool<{ city: string }>({ inputSchema, … })`: the arguments are checked against the JSON
 * Schema, the type is your promise; `unknown` if you name none). Returns the tool as given.
 */
export function defineTool<S extends StandardSchemaV1>(tool: SchemaToolDefinition<S>): DynamicTool<StandardSchemaV1.InferOutput<S>>;
export function defineTool<Args = unknown>(tool: JsonSchemaToolDefinition<Args>): DynamicTool<Args>;
export function defineTool(tool: DynamicTool): DynamicTool {
  return tool;
}
