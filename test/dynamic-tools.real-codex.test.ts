// Dynamic tools declared with a Standard Schema (zod here; core's unit tests use valibot and a
// hand-written one too), against the real codex app-server and the scripted mock model: bad
// arguments reach the model as the tool's failed output, good ones reach a typed handler;
// namespaces; the handler's signal when the turn is interrupted under it.
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { defineTool, type DynamicTool } from "@codex-rpc/core";
import { reply, type ScriptedReply } from "@codex-rpc/testing";
import { OfflineCodex } from "./support/offline-codex.js";

describe("dynamic tools with schemas, against the real codex app-server", () => {
  let codex: OfflineCodex | undefined;
  afterEach(async () => {
    await codex?.dispose();
    codex = undefined;
  });

  async function start(script: readonly ScriptedReply[], tools: readonly DynamicTool[]) {
    codex = await OfflineCodex.start({ script, client: { tools } });
    return codex;
  }

  const dynamicToolItems = (run: Awaited<ReturnType<OfflineCodex["runTurn"]>>) =>
    run.notifications.flatMap((n) => (n.method === "item/completed" && n.params.item.type === "dynamicToolCall" ? [n.params.item] : []));

  it("a zod tool: bad arguments reach the model as the tool's error and the handler never runs; a good call is typed and answered", async () => {
    const seen: { city: string; days: number }[] = [];
    const weather = defineTool({
      name: "weather",
      description: "The weather forecast for a city.",
      schema: z.object({ city: z.string().describe("The city"), days: z.number().int().min(1).max(7).default(1) }),
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string; days: number }>();
        seen.push(args);
        return `${args.city}: sunny for ${args.days} days`;
      },
    });
    const bad = reply.toolCall("weather", { city: 3, days: 0 });
    const good = reply.toolCall("weather", { city: "Paris", days: 2 });
    const { provider } = await start([bad, good, reply.text("Sunny in Paris.")], [weather]);
    const thread = await codex!.startThread();
    const run = await codex!.runTurn(thread, "Weather in Paris?");

    // What codex offers the model: zod's JSON Schema of the input; codex 0.169.0 keeps type,
    // properties, required and description, and drops $schema, minimum, maximum and default.
    expect(provider.requests[0]?.tools).toContainEqual({
      type: "function",
      name: "weather",
      description: "The weather forecast for a city.",
      strict: false,
      parameters: { type: "object", properties: { city: { type: "string", description: "The city" }, days: { type: "integer" } }, required: ["city"] },
    });
    // The next model request carries the validation error as the call's output.
    const error = provider.requests[1]?.functionCallOutput(bad.callId);
    expect(error).toBe(
      'Invalid arguments for tool "weather"; fix them and call it again:\n' +
        "- city: Invalid input: expected string, received number\n" +
        "- days: Too small: expected number to be >=1",
    );
    expect(provider.requests[2]?.functionCallOutput(good.callId)).toBe("Paris: sunny for 2 days");
    expect(seen).toEqual([{ city: "Paris", days: 2 }]);
    expect(dynamicToolItems(run)).toEqual([
      expect.objectContaining({ id: bad.callId, status: "failed", success: false }),
      expect.objectContaining({ id: good.callId, status: "completed", success: true }),
    ]);
    expect(run.finalText).toBe("Sunny in Paris.");
  });

  it("a plain JSON Schema tool: its arguments are checked against the schema, the type is the one named", async () => {
    const seen: unknown[] = [];
    const capital = defineTool<{ country: string }>({
      name: "capital",
      description: "The capital of a country.",
      inputSchema: { type: "object", properties: { country: { type: "string" } }, required: ["country"], additionalProperties: false },
      handler: ({ country }) => {
        seen.push(country);
        return country === "France" ? "Paris" : "unknown";
      },
    });
    const bad = reply.toolCall("capital", { land: "France" });
    const good = reply.toolCall("capital", { country: "France" });
    const { provider } = await start([bad, good, reply.text("Paris.")], [capital]);
    await codex!.runTurn(await codex!.startThread(), "Capital of France?");
    expect(provider.requests[1]?.functionCallOutput(bad.callId)).toBe(
      'Invalid arguments for tool "capital"; fix them and call it again:\n- country: Required\n- land: Unknown property',
    );
    expect(provider.requests[2]?.functionCallOutput(good.callId)).toBe("Paris");
    expect(seen).toEqual(["France"]);
  });

  it("namespaces: tools of one name in two namespaces and outside any are told apart by the call's namespace (codex reserves mcp__* and Responses API names such as web)", async () => {
    const lookup = (namespace: string | undefined) =>
      defineTool({
        name: "lookup",
        ...(namespace === undefined ? {} : { namespace: { name: namespace, description: `Look things up in ${namespace}.` } }),
        description: "Looks a term up.",
        schema: z.object({ term: z.string() }),
        handler: ({ term }) => `${namespace ?? "top"}: ${term}`,
      });
    const calls = [
      reply.toolCall("lookup", { term: "a" }, { namespace: "docs" }),
      reply.toolCall("lookup", { term: "b" }, { namespace: "wiki" }),
      reply.toolCall("lookup", { term: "c" }),
    ];
    const { provider } = await start([...calls, reply.text("Done.")], [lookup("docs"), lookup("wiki"), lookup(undefined)]);
    const thread = await codex!.startThread();
    const run = await codex!.runTurn(thread, "Look them up.");
    expect(provider.requests[0]?.tools).toContainEqual(expect.objectContaining({ type: "namespace", name: "docs", description: "Look things up in docs." }));
    expect(provider.requests[0]?.tools).toContainEqual(expect.objectContaining({ type: "namespace", name: "wiki" }));
    expect(provider.requests[0]?.tools).toContainEqual(expect.objectContaining({ type: "function", name: "lookup" }));
    const outputs = provider.requests[3]?.functionCallOutputs().map(({ output }) => output);
    expect(outputs).toEqual(["docs: a", "wiki: b", "top: c"]);
    expect(dynamicToolItems(run).map((item) => [item.namespace, item.tool])).toEqual([
      ["docs", "lookup"],
      ["wiki", "lookup"],
      [null, "lookup"],
    ]);
  });

  it("interrupting the turn aborts the handler's signal (codex 0.169.0 sends no serverRequest/resolved for it)", async () => {
    let signal: AbortSignal | undefined;
    let called: () => void = () => {};
    const running = new Promise<void>((resolve) => (called = resolve));
    const slow = defineTool({
      name: "slow",
      description: "Takes its time.",
      schema: z.object({}),
      handler: (_args, context) => {
        signal = context.signal;
        called();
        return new Promise<string>((resolve) => context.signal.addEventListener("abort", () => resolve("cancelled")));
      },
    });
    const { provider } = await start([reply.toolCall("slow", {}), reply.text("never")], [slow]);
    const withdrawn: unknown[] = [];
    codex!.client.notifications("serverRequest/resolved").subscribe((params) => withdrawn.push(params));
    const thread = await codex!.startThread();
    const turn = thread.run("Be slow.");
    await running;
    expect(signal?.aborted).toBe(false);
    await turn.interrupt();
    const done = await turn.completed;
    expect(done.status).toBe("interrupted");
    expect(signal?.aborted).toBe(true);
    expect(String(signal?.reason)).toMatch(/turn .+ ended \(interrupted\) before tool call .+ was answered/);
    expect(withdrawn).toEqual([]);
    expect(provider.requests).toHaveLength(1);
  });
});
