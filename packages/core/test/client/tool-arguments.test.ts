import { describe, expect, it } from "vitest";
import { checkToolArguments } from "../../src/client/tool-arguments.js";
import type { StandardSchemaV1 } from "../../src/util/standard-schema.js";

function validator(validate: StandardSchemaV1["~standard"]["validate"]): StandardSchemaV1["~standard"] {
  return { version: 1, vendor: "test", validate };
}

describe("checkToolArguments", () => {
  it("gives the schema's output value on success, sync or async", async () => {
    expect(
      await checkToolArguments(
        "t",
        validator(() => ({ value: 1 })),
        {},
      ),
    ).toEqual({ ok: true, value: 1 });
    expect(
      await checkToolArguments(
        "t",
        validator(async () => ({ value: "x" })),
        {},
      ),
    ).toEqual({ ok: true, value: "x" });
  });

  it("lists the issues with their paths (keys and { key } segments, indexes in brackets), ten at most", async () => {
    const issues = [
      { message: "Expected string", path: ["items", 0, { key: "city" }] },
      { message: "Required", path: [{ key: "days" }] },
      { message: "Not an object" },
      ...Array.from({ length: 10 }, (_, i) => ({ message: `extra ${i}`, path: [`k${i}`] })),
    ];
    const checked = await checkToolArguments(
      "ns.t",
      validator(() => ({ issues })),
      {},
    );
    expect(checked.ok).toBe(false);
    const message = (checked as { message: string }).message;
    expect(message.split("\n")).toEqual([
      'Invalid arguments for tool "ns.t"; fix them and call it again:',
      "- items[0].city: Expected string",
      "- days: Required",
      "- Not an object",
      ...Array.from({ length: 7 }, (_, i) => `- k${i}: extra ${i}`),
      "- and 3 more",
    ]);
  });

  it("a validator that throws, rejects or answers nothing is a failure the model reads", async () => {
    expect(
      await checkToolArguments(
        "t",
        validator(() => {
          throw new Error("boom");
        }),
        {},
      ),
    ).toEqual({ ok: false, message: 'Invalid arguments for tool "t": the test validator failed: boom' });
    expect(
      await checkToolArguments(
        "t",
        validator(() => Promise.reject(new Error("late"))),
        {},
      ),
    ).toMatchObject({ ok: false, message: expect.stringContaining("late") });
    expect(
      await checkToolArguments(
        "t",
        validator(() => undefined as never),
        {},
      ),
    ).toEqual({
      ok: false,
      message: 'Invalid arguments for tool "t": the test validator gave no result',
    });
    // Issues that are no array, or hold nulls: still a tool error the model reads, never a throw.
    for (const issues of [5, [null]]) {
      expect(
        await checkToolArguments(
          "t",
          validator(() => ({ issues }) as never),
          {},
        ),
      ).toEqual({
        ok: false,
        message: 'Invalid arguments for tool "t"; fix them and call it again:\n- invalid',
      });
    }
  });

  it("never passes an odd result as success, and reads every odd failure into a message (review 8)", async () => {
    const check = (result: () => unknown) => checkToolArguments("t", validator(result as never), {});
    // No `value`: an array without issues, a Promise of one, `{}`: the handler must not run on them.
    for (const result of [() => [], () => Promise.resolve([1, 2]), () => ({})]) {
      expect(await check(result)).toEqual({ ok: false, message: 'Invalid arguments for tool "t": the test validator gave no result' });
    }
    expect(await check(() => ({ value: undefined }))).toEqual({ ok: true, value: undefined });
    expect(await check(() => ({ issues: [] }))).toEqual({
      ok: false,
      message: 'Invalid arguments for tool "t": the test validator refused them without saying why',
    });
    const throwing = new Proxy(
      {},
      {
        get: (_target, key) => {
          if (key === "then") return undefined;
          throw new Error("boom");
        },
      },
    );
    expect(await check(() => throwing)).toMatchObject({ ok: false, message: expect.stringContaining("could not be read: boom") });
    expect(await check(() => ({ issues: [{ message: Object.create(null) }] }))).toMatchObject({
      ok: false,
      message: expect.stringContaining("could not be read"),
    });
  });
});
