// Dynamic tools declared with a Standard Schema (zod, valibot, a hand-written one) or plain JSON
// Schema, over the in-memory app-server: what thread/start declares, how calls are validated and
// matched, and what the handler's `args` is typed as.
import { type } from "arktype";
import * as v from "valibot";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { defineTool, InvalidOptionError, type DynamicTool, type StandardSchemaV1 } from "@codex-rpc/core";
import { connect } from "../support/connect-to-fake.js";

/** A Standard Schema written by hand: no library at all. */
const cityByHand: StandardSchemaV1<unknown, { city: string }> = {
  "~standard": {
    version: 1,
    vendor: "by-hand",
    validate: (value) =>
      typeof value === "object" && value !== null && typeof (value as { city?: unknown }).city === "string"
        ? { value: { city: (value as { city: string }).city } }
        : { issues: [{ message: "city must be a string", path: [{ key: "city" }] }] },
  },
};

const noop = (): string => "";

const CITY_JSON_SCHEMA = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };

function call(tool: string, args: unknown, namespace: string | null = null) {
  return { threadId: "t", turnId: "u", callId: "c", tool, namespace, arguments: args };
}

describe("defineTool", () => {
  it("infers args from a zod schema, a valibot schema and a hand-written Standard Schema; a JSON Schema tool takes the Args you name", () => {
    const zodTool = defineTool({
      name: "z",
      description: "",
      schema: z.object({ city: z.string(), days: z.number().default(1) }),
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string; days: number }>();
        return args.city;
      },
    });
    expectTypeOf(zodTool).toEqualTypeOf<DynamicTool<{ city: string; days: number }>>();
    defineTool({
      name: "v",
      description: "",
      schema: v.object({ city: v.string() }),
      inputSchema: CITY_JSON_SCHEMA,
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string }>();
        return args.city;
      },
    });
    defineTool({ name: "h", description: "", schema: cityByHand, inputSchema: CITY_JSON_SCHEMA, handler: (args) => args.city });
    defineTool<{ city: string }>({ name: "j", description: "", inputSchema: CITY_JSON_SCHEMA, handler: (args) => args.city });
    defineTool({
      name: "u",
      description: "",
      inputSchema: CITY_JSON_SCHEMA,
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<unknown>();
        // @ts-expect-error without a schema or a named Args, args is unknown
        return args.city;
      },
    });
    // Tools of different argument types go in one `tools` array.
    const tools: readonly DynamicTool[] = [zodTool, defineTool({ name: "w", description: "", inputSchema: true, handler: () => "" })];
    expect(tools).toHaveLength(2);
  });
});

describe("dynamic tools (fake server)", () => {
  it("declares each tool on thread/start with its JSON Schema: given, or converted from zod (input side, without $schema)", async () => {
    const { server, client } = await connect(
      {},
      {
        tools: [
          defineTool({ name: "weather", description: "Weather.", schema: z.object({ city: z.string().describe("The city") }), handler: () => "" }),
          defineTool({ name: "plain", description: "Plain.", inputSchema: CITY_JSON_SCHEMA, handler: () => "" }),
          defineTool({ name: "by_hand", description: "By hand.", schema: cityByHand, inputSchema: { type: "object" }, handler: () => "" }),
        ],
      },
    );
    await client.startThread();
    const start = server.received.find((message) => "method" in message && message.method === "thread/start");
    expect((start as { params: { dynamicTools: unknown } }).params.dynamicTools).toEqual([
      {
        type: "function",
        name: "weather",
        description: "Weather.",
        inputSchema: { type: "object", properties: { city: { type: "string", description: "The city" } }, required: ["city"] },
      },
      { type: "function", name: "plain", description: "Plain.", inputSchema: CITY_JSON_SCHEMA },
      { type: "function", name: "by_hand", description: "By hand.", inputSchema: { type: "object" } },
    ]);
    await client.close();
  });

  it.each([
    ["zod", z.object({ city: z.string() }), undefined, "city: Invalid input: expected string, received number"],
    ["valibot", v.object({ city: v.string() }), CITY_JSON_SCHEMA, "city: Invalid type: Expected string but received 3"],
    // arktype's failure is an array (its ArkErrors) that carries `issues`: a review found it read as no result.
    ["arktype", type({ city: "string" }), undefined, "city: city must be a string (was a number)"],
    ["a hand-written Standard Schema", cityByHand, CITY_JSON_SCHEMA, "city: city must be a string"],
  ] as const)(
    "validates arguments with %s: bad ones are a failed call the model reads, the handler never runs; good ones reach it parsed",
    async (_, schema, inputSchema, issue) => {
      const seen: unknown[] = [];
      const tool = defineTool({
        name: "weather",
        description: "Weather.",
        schema: schema as StandardSchemaV1<unknown, { city: string }>,
        inputSchema,
        handler: (args) => {
          seen.push(args);
          return `sunny in ${args.city}`;
        },
      });
      const { server, client } = await connect({}, { tools: [tool] });
      const bad = await server.request("item/tool/call", call("weather", { city: 3 }));
      expect(bad).toEqual({
        result: {
          success: false,
          contentItems: [{ type: "inputText", text: `Invalid arguments for tool "weather"; fix them and call it again:\n- ${issue}` }],
        },
      });
      expect(seen).toEqual([]);
      const good = await server.request("item/tool/call", call("weather", { city: "Paris" }));
      expect(good).toEqual({ result: { success: true, contentItems: [{ type: "inputText", text: "sunny in Paris" }] } });
      expect(seen).toEqual([{ city: "Paris" }]);
      await client.close();
    },
  );

  it("hands the handler the schema's output (defaults and transforms applied), not the raw arguments", async () => {
    const tool = defineTool({
      name: "forecast",
      description: "",
      schema: z.object({ city: z.string().transform((city) => city.toUpperCase()), days: z.number().int().min(1).default(3) }),
      handler: ({ city, days }) => `${city} for ${days} days`,
    });
    const { server, client } = await connect({}, { tools: [tool] });
    expect(await server.request("item/tool/call", call("forecast", { city: "paris" }))).toMatchObject({
      result: { success: true, contentItems: [{ text: "PARIS for 3 days" }] },
    });
    expect(await server.request("item/tool/call", call("forecast", { city: "paris", days: 0 }))).toMatchObject({
      result: { success: false, contentItems: [{ text: expect.stringContaining("- days: Too small") }] },
    });
    await client.close();
  });

  it("checks plain-JSON-Schema arguments against the schema's keywords, then passes them on as sent", async () => {
    const schema = { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] };
    const tool = defineTool<{ a: number; b: number }>({ name: "add", description: "adds", inputSchema: schema, handler: ({ a, b }) => String(a + b) });
    const { server, client } = await connect({}, { tools: [tool] });
    expect(await server.request("item/tool/call", call("add", { a: 2, b: 3 }))).toEqual({
      result: { success: true, contentItems: [{ type: "inputText", text: "5" }] },
    });
    expect(await server.request("item/tool/call", call("add", { a: "2" }))).toEqual({
      result: {
        success: false,
        contentItems: [
          { type: "inputText", text: 'Invalid arguments for tool "add"; fix them and call it again:\n- b: Required\n- a: Expected number, received string' },
        ],
      },
    });
    expect(await server.request("item/tool/call", call("nope", {}))).toMatchObject({
      result: { success: false, contentItems: [{ text: 'Unknown tool "nope": this client registered add.' }] },
    });
    await client.close();
  });

  it("groups tools by namespace on thread/start and matches calls by namespace and name", async () => {
    const answer = (text: string) => () => text;
    const { server, client } = await connect(
      {},
      {
        tools: [
          defineTool({ name: "lookup", description: "Top-level lookup.", inputSchema: { type: "object" }, handler: answer("top") }),
          defineTool({
            name: "lookup",
            namespace: { name: "docs", description: "Docs tools." },
            description: "Docs lookup.",
            inputSchema: { type: "object" },
            handler: answer("docs"),
          }),
          defineTool({ name: "search", namespace: "docs", description: "Docs search.", inputSchema: { type: "object" }, handler: answer("search") }),
          defineTool({ name: "lookup", namespace: "web", description: "Web lookup.", inputSchema: { type: "object" }, handler: answer("web") }),
        ],
      },
    );
    await client.startThread();
    const start = server.received.find((message) => "method" in message && message.method === "thread/start");
    const fn = (name: string, description: string) => ({ type: "function", name, description, inputSchema: { type: "object" } });
    expect((start as { params: { dynamicTools: unknown } }).params.dynamicTools).toEqual([
      fn("lookup", "Top-level lookup."),
      { type: "namespace", name: "docs", description: "Docs tools.", tools: [fn("lookup", "Docs lookup."), fn("search", "Docs search.")] },
      { type: "namespace", name: "web", description: "Tools of web.", tools: [fn("lookup", "Web lookup.")] },
    ]);
    const text = async (tool: string, namespace: string | null) =>
      ((await server.request("item/tool/call", call(tool, {}, namespace))) as { result: { contentItems: [{ text: string }] } }).result.contentItems[0].text;
    expect(await text("lookup", null)).toBe("top");
    expect(await text("lookup", "docs")).toBe("docs");
    expect(await text("lookup", "web")).toBe("web");
    expect(await text("search", "docs")).toBe("search");
    expect(await text("search", null)).toBe('Unknown tool "search": this client registered lookup, docs.lookup, docs.search, web.lookup.');
    expect(await text("lookup", "nowhere")).toContain('Unknown tool "nowhere.lookup"');
    await client.close();
  });

  it.each([
    [
      "no JSON Schema for a schema without a converter",
      [{ name: "t", description: "", schema: v.string(), handler: noop }],
      /tools\[0\]: the valibot schema has no `~standard.jsonSchema` converter/,
    ],
    ["neither schema nor inputSchema", [{ name: "t", description: "", handler: noop }], /needs `schema` \(a Standard Schema\) or `inputSchema`/],
    ["a schema that is not a Standard Schema", [{ name: "t", description: "", schema: { type: "object" }, handler: noop }], /not a Standard Schema/],
    ["a name codex refuses", [{ name: "bad name", description: "", inputSchema: {}, handler: noop }], /must match/],
    ["a reserved namespace", [{ name: "t", namespace: "mcp__x", description: "", inputSchema: {}, handler: noop }], /reserves mcp__/],
    [
      "the same name twice in a namespace",
      [
        { name: "t", namespace: "n", description: "", inputSchema: {}, handler: noop },
        { name: "t", namespace: "n", description: "", inputSchema: {}, handler: noop },
      ],
      /tools\[1\]: a second tool "n.t"/,
    ],
    [
      "a namespace described twice, differently",
      [
        { name: "a", namespace: { name: "n", description: "one" }, description: "", inputSchema: {}, handler: noop },
        { name: "b", namespace: { name: "n", description: "two" }, description: "", inputSchema: {}, handler: noop },
      ],
      /described twice/,
    ],
    // codex sends a call's arguments as one JSON object: such a tool could never be called.
    ["an inputSchema of another type", [{ name: "t", description: "", inputSchema: { type: "string" }, handler: noop }], /must describe an object.*"string"/],
    ["an inputSchema that is not an object", [{ name: "t", description: "", inputSchema: true, handler: noop }], /must be a JSON Schema object, got true/],
    ["a zod schema of a string", [defineTool({ name: "t", description: "", schema: z.string(), handler: noop })], /must describe an object.*"string"/],
    [
      "an arktype schema of an array",
      [defineTool({ name: "t", description: "", schema: type("string[]"), handler: noop })],
      /must describe an object.*"array"/,
    ],
  ])("refuses %s with an InvalidOptionError before connecting", async (_, tools, message) => {
    const connected = connect({}, { tools: tools as unknown as DynamicTool[] });
    await expect(connected).rejects.toBeInstanceOf(InvalidOptionError);
    await expect(connected).rejects.toThrow(message);
  });

  it("accepts an object schema that may also be null, and one that names no type", async () => {
    const tools = [
      { name: "a", description: "", inputSchema: { type: ["object", "null"], properties: {} }, handler: noop },
      { name: "b", description: "", inputSchema: {}, handler: noop },
    ];
    const { client } = await connect({}, { tools });
    await client.close();
  });

  it("a converter that throws is an InvalidOptionError naming the fix", async () => {
    const schema = {
      "~standard": {
        ...cityByHand["~standard"],
        jsonSchema: {
          input: () => {
            throw new Error("unsupported: transforms");
          },
          output: () => ({}),
        },
      },
    };
    await expect(connect({}, { tools: [defineTool({ name: "t", description: "", schema, handler: () => "" })] })).rejects.toThrow(
      /could not be converted to JSON Schema: unsupported: transforms; or give `inputSchema`/,
    );
  });
});
