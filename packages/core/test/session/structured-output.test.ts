// outputSchema: sent as turn/start's outputSchema, the final message parsed and validated into a
// typed `completed.output` (or `outputError`), on the FakeAppServer.
import { describe, expect, expectTypeOf, it } from "vitest";
import { InvalidOptionError, OutputValidationError } from "@codex-rpc/core";
import { connect } from "../support/connect-to-fake.js";
import { WEATHER_JSON_SCHEMA, weatherSchema, type Weather } from "../support/standard-schemas.js";

const turnStartParams = (received: readonly unknown[]) =>
  received.flatMap((message) => ((message as { method?: string }).method === "turn/start" ? [(message as { params: Record<string, unknown> }).params] : []));

describe("structured output (fake server)", () => {
  it("sends the schema's JSON Schema as outputSchema and gives the validated value, typed by the schema", async () => {
    for (const asyncValidate of [false, true]) {
      const { server, client } = await connect({ turns: [{ deltas: ['{"city":', '"Paris","celsius":21}'] }] });
      const thread = await client.startThread();
      const turn = thread.run("weather?", { outputSchema: weatherSchema({ asyncValidate }) });
      const done = await turn.completed;
      expectTypeOf(done.output).toEqualTypeOf<Weather | undefined>();
      expectTypeOf(turn.output).toEqualTypeOf<Promise<Weather>>();
      expect(done.output).toEqual({ city: "Paris", celsius: 21 });
      expect(done.outputError).toBeUndefined();
      await expect(turn.output).resolves.toEqual({ city: "Paris", celsius: 21 });
      expect(turnStartParams(server.received)[0]).toMatchObject({ outputSchema: WEATHER_JSON_SCHEMA });
      await client.close();
    }
  });

  it("reports a final message that is not JSON, or does not fit the schema, as OutputValidationError; completed still resolves", async () => {
    const { client } = await connect({ turns: [{ deltas: ["It is sunny."] }, { deltas: ['{"city":1}'] }] });
    const thread = await client.startThread();
    const notJson = thread.run("a", { outputSchema: weatherSchema() });
    const done = await notJson.completed;
    expect(done.status).toBe("completed");
    expect(done.output).toBeUndefined();
    expect(done.outputError).toBeInstanceOf(OutputValidationError);
    expect(done.outputError).toMatchObject({ code: "OUTPUT_INVALID", reason: "invalid-json" });
    // The model's text stays out of the error (it is in finalText).
    expect(done.outputError?.message).not.toContain("sunny");
    await expect(notJson.output).rejects.toBe(done.outputError);

    const wrong = await thread.run("b", { outputSchema: weatherSchema() }).completed;
    expect(wrong.outputError).toMatchObject({ reason: "schema", issues: [{ message: "expected a string" }, { message: "expected a number" }] });
    expect(wrong.outputError?.message).toContain("city: expected a string; celsius: expected a number");
    await client.close();
  });

  it("takes an odd validator result (an array without issues, no value) for no answer, not for the output (review 8)", async () => {
    const { client } = await connect({ turns: [{ deltas: ['{"city":"Paris","celsius":21}'] }, { deltas: ['{"city":"Paris","celsius":21}'] }] });
    const thread = await client.startThread();
    for (const odd of [[], {}]) {
      const schema = { "~standard": { version: 1 as const, vendor: "odd", validate: () => odd as never } };
      const done = await thread.run("a", { outputSchema: { schema, jsonSchema: { type: "object" } } }).completed;
      expect(done.output).toBeUndefined();
      expect(done.outputError).toMatchObject({ code: "OUTPUT_INVALID", reason: "schema" });
      expect(done.outputError?.message).toContain("the validator gave no result");
    }
    await client.close();
  });

  it("a validator that throws what has no text, or gives issues that are no array, still ends in OutputValidationError (review 9)", async () => {
    const messageThrows = new Error("x");
    Object.defineProperty(messageThrows, "message", {
      get() {
        throw new Error("no message");
      },
    });
    const validators: (() => unknown)[] = [
      () => {
        throw Object.create(null);
      },
      () => Promise.reject(Object.create(null)),
      () => {
        throw messageThrows;
      },
      () => ({ issues: null }),
    ];
    const { client } = await connect({ turns: validators.map(() => ({ deltas: ['{"city":"Paris","celsius":21}'] })) });
    const thread = await client.startThread();
    for (const validate of validators) {
      const schema = { "~standard": { version: 1 as const, vendor: "odd", validate: validate as never } };
      const done = await thread.run("a", { outputSchema: { schema, jsonSchema: { type: "object" } } }).completed;
      expect(done.outputError).toBeInstanceOf(OutputValidationError);
      expect(done.outputError).toMatchObject({ code: "OUTPUT_INVALID", reason: "schema" });
    }
    await client.close();
  });

  it("has no output when the turn did not complete", async () => {
    const { client } = await connect({ turns: [{ status: "failed" }] });
    const thread = await client.startThread();
    const done = await thread.run("a", { outputSchema: weatherSchema() }).completed;
    expect(done.outputError).toMatchObject({ reason: "no-output" });
    expect(done.outputError?.message).toContain("the turn ended failed");
    await client.close();
  });

  it("parses the answer to a plain JSON Schema without validating it (typed unknown), and a { schema, jsonSchema } pair with its schema", async () => {
    const { server, client } = await connect({ turns: [{ deltas: ['{"anything":true}'] }, { deltas: ['{"city":"Oslo","celsius":-3}'] }] });
    const thread = await client.startThread();
    const plain = await thread.run("a", { outputSchema: { type: "object" } }).completed;
    expectTypeOf(plain.output).toEqualTypeOf<unknown>();
    expect(plain.output).toEqual({ anything: true });
    const paired = await thread.run("b", { outputSchema: { schema: weatherSchema({ jsonSchema: false }), jsonSchema: { type: "object", title: "given" } } })
      .completed;
    expectTypeOf(paired.output).toEqualTypeOf<Weather | undefined>();
    expect(paired.output).toEqual({ city: "Oslo", celsius: -3 });
    expect(turnStartParams(server.received).map((params) => params.outputSchema)).toEqual([{ type: "object" }, { type: "object", title: "given" }]);
    await client.close();
  });

  it("refuses a schema codex cannot be given, or one given twice, before anything is sent", async () => {
    const { server, client } = await connect();
    const thread = await client.startThread();
    expect(() => thread.run("a", { outputSchema: weatherSchema({ jsonSchema: false }) })).toThrow(InvalidOptionError);
    expect(() => thread.run("a", { outputSchema: { type: "object" }, params: { outputSchema: { type: "object" } } })).toThrow(/given twice/);
    expect(turnStartParams(server.received)).toEqual([]);
    // Without outputSchema nothing changes: output is undefined.
    const done = await thread.run("plain").completed;
    expectTypeOf(done.output).toEqualTypeOf<undefined>();
    expect(done).toMatchObject({ output: undefined, outputError: undefined });
    await client.close();
  });
});
