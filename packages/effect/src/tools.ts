// Dynamic tools declared with an Effect Schema and answered by an Effect. Core's `defineTool`
// takes Standard Schema (it validates and types the arguments) with its Standard JSON Schema
// (what codex shows the model): Effect's Schema gives both.
import { type DynamicTool, type DynamicToolContext, type DynamicToolNamespace, type DynamicToolOutput, defineTool } from "@codex-rpc/core";
import { type Context, type Effect, Schema } from "effect";
import { runHandler } from "./run-handler.js";

/** A tool whose handler is an Effect needing `R`; the Layer that declares it provides `R`. */
export interface EffectTool<R = never> {
  readonly name: string;
  readonly namespace?: DynamicToolNamespace | undefined;
  readonly description: string;
  /** Builds core's tool with the Layer's environment. */
  readonly toCore: (run: <A>(effect: Effect.Effect<A, unknown, R>, signal: AbortSignal) => Promise<A>) => DynamicTool;
}

export interface EffectToolDefinition<S extends Schema.Codec<unknown, unknown>, E, R> {
  readonly name: string;
  readonly namespace?: DynamicToolNamespace | undefined;
  readonly description: string;
  /** The arguments: decoded with this schema (its Encoded side is the JSON Schema codex shows the model). */
  readonly schema: S;
  /** A failure or defect is answered `success: false` with its message, as a throwing core handler. */
  handler(args: S["Type"], context: DynamicToolContext): Effect.Effect<DynamicToolOutput, E, R>;
}

/** Declares a tool with an Effect Schema; `args` is the schema's decoded Type. */
export function defineEffectTool<S extends Schema.Codec<unknown, unknown>, E = never, R = never>(definition: EffectToolDefinition<S, E, R>): EffectTool<R> {
  const { schema, handler, ...named } = definition;
  // Decoded from JSON (what the model sends) with the schema's canonical JSON codec: the same
  // codec whose Encoded side the JSON Schema describes (a Date is an ISO string in both).
  const standard = Schema.toStandardJSONSchemaV1(Schema.toStandardSchemaV1(Schema.toCodecJson(schema)));
  return {
    ...named,
    toCore: (run) =>
      defineTool({
        ...named,
        schema: standard,
        handler: (args, context) => run(handler(args as S["Type"], context), context.signal),
      }),
  };
}

export function toCoreTool<R>(tool: EffectTool<R>, context: Context.Context<R>): DynamicTool {
  return tool.toCore(runHandler(context));
}
