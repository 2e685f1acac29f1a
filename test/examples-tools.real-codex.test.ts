import { describe, expect, it } from "vitest";
import { runExample } from "./support/run-example.js";

describe("the dynamic tools example (examples/tools.mjs)", () => {
  it("runs a zod tool on a real codex app-server with the mock model: the bad call's error reaches the model, the good call reaches the typed handler", () => {
    const stdout = runExample("tools.mjs");
    expect(stdout).toContain(
      'offered to the model: {"type":"namespace","name":"weather","description":"Weather tools.","tools":[{"type":"function","name":"forecast"',
    );
    expect(stdout).toContain(
      '"parameters":{"type":"object","properties":{"city":{"type":"string","description":"The city"},"days":{"type":"integer"}},"required":["city"]}',
    );
    expect(stdout).toContain('tool call: weather.forecast({"city":42,"days":0}) → failed');
    expect(stdout).toContain(
      'the model read after the bad call:\nInvalid arguments for tool "weather.forecast"; fix them and call it again:\n' +
        "- city: Invalid input: expected string, received number\n- days: Too small: expected number to be >=1\n",
    );
    // The handler ran once, for the good call only.
    expect(stdout.match(/^handler: /gm)).toHaveLength(1);
    expect(stdout).toContain('handler: forecast({"city":"Paris","days":2})');
    expect(stdout).toContain('tool call: weather.forecast({"city":"Paris","days":2}) → completed');
    expect(stdout).toContain("the model read after the good call: Paris: sunny, 21 °C, for the next 2 days");
    expect(stdout).toContain("codex: It will be sunny in Paris for two days.");
    expect(stdout).toContain("turn completed");
  });
});
