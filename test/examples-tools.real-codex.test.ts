import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const example = fileURLToPath(new URL("../examples/tools.mjs", import.meta.url));

describe("the dynamic tools example (examples/tools.mjs)", () => {
  it("runs a zod tool on a real codex app-server with the mock model: the bad call's error reaches the model, the good call reaches the typed handler", () => {
    const run = spawnSync(process.execPath, [example], { encoding: "utf8", timeout: 60_000, env: { ...process.env, NO_COLOR: "1" } });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(
      'offered to the model: {"type":"namespace","name":"weather","description":"Weather tools.","tools":[{"type":"function","name":"forecast"',
    );
    expect(run.stdout).toContain(
      '"parameters":{"type":"object","properties":{"city":{"type":"string","description":"The city"},"days":{"type":"integer"}},"required":["city"]}',
    );
    expect(run.stdout).toContain('tool call: weather.forecast({"city":42,"days":0}) → failed');
    expect(run.stdout).toContain(
      'the model read after the bad call:\nInvalid arguments for tool "weather.forecast"; fix them and call it again:\n' +
        "- city: Invalid input: expected string, received number\n- days: Too small: expected number to be >=1\n",
    );
    // The handler ran once, for the good call only.
    expect(run.stdout.match(/^handler: /gm)).toHaveLength(1);
    expect(run.stdout).toContain('handler: forecast({"city":"Paris","days":2})');
    expect(run.stdout).toContain('tool call: weather.forecast({"city":"Paris","days":2}) → completed');
    expect(run.stdout).toContain("the model read after the good call: Paris: sunny, 21 °C, for the next 2 days");
    expect(run.stdout).toContain("codex: It will be sunny in Paris for two days.");
    expect(run.stdout).toContain("turn completed");
  });
});
