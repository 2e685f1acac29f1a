// The benchmark programs' pure parts (tools/bench/): the workloads have the shape of the recorded
// codex fixture and parse, and the report marks targets met / not met. No timing is asserted here.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as report from "../tools/bench/report.mjs";
import * as workloads from "../tools/bench/workloads.mjs";

const ROOT = join(import.meta.dirname, "..");

describe("tools/bench workloads", () => {
  const fixture = workloads.loadFixture();

  it("the fixture is codex's own lines, scrubbed of temp paths", () => {
    const text = readFileSync(workloads.FIXTURE, "utf8");
    expect(text).not.toMatch(/codex-rpc-home-/);
    expect(text).not.toMatch(/127\.0\.0\.1:(?!0\/)/);
    const scenarios = new Set(fixture.map((entry: { scenario: string }) => entry.scenario));
    expect([...scenarios]).toEqual(expect.arrayContaining(["long-text", "command", "file-change"]));
    const methods = new Set(fixture.map((entry: { message: { method?: string } }) => entry.message.method));
    for (const method of ["item/agentMessage/delta", "item/commandExecution/outputDelta", "item/started", "item/completed", "turn/completed"]) {
      expect(methods).toContain(method);
    }
  });

  for (const kind of ["agent", "command"] as const) {
    for (const lineBytes of [240, 20_000]) {
      it(`a scaled ${kind} workload of ${lineBytes} B deltas has the fixture's shape and parses`, () => {
        const count = 50;
        const w = workloads.codexWorkload(fixture, { kind, count, lineBytes, name: "test" });
        const shapes = workloads.shapesOf(fixture, kind);
        const messages = w.lines.map((line: string) => JSON.parse(line));
        expect(messages.map((m: { method: string }) => m.method)).toEqual([
          "turn/started",
          "item/started",
          ...Array(count).fill(w.deltaMethod),
          "item/completed",
          "turn/completed",
        ]);
        const deltas = messages.slice(2, 2 + count);
        for (const [i, delta] of deltas.entries()) {
          expect(Buffer.byteLength(w.lines[2 + i])).toBe(lineBytes);
          // Every key of the recorded delta, in the same order; only the text and timestamp differ.
          expect(Object.keys(delta)).toEqual(Object.keys(shapes.delta));
          expect(Object.keys(delta.params)).toEqual(Object.keys(shapes.delta.params));
          expect(delta.params.itemId).toBe(shapes.itemId);
        }
        const text = deltas.map((d: { params: { delta: string } }) => d.params.delta).join("");
        const completed = messages[2 + count].params.item;
        expect(completed.id).toBe(shapes.itemId);
        expect(kind === "agent" ? completed.text : completed.aggregatedOutput).toBe(text);
        // The bytes are the lines, cut into 64 KiB chunks.
        expect(Buffer.concat(w.chunks).toString("utf8")).toBe(`${w.lines.join("\n")}\n`);
        expect(w.chunks.slice(0, -1).every((c: Buffer) => c.length === workloads.CHUNK_BYTES)).toBe(true);
        // The peers' lines are strict JSON-RPC 2.0 and say the same.
        const rpc = w.rpc2.lines.map((line: string) => JSON.parse(line));
        expect(rpc.every((m: { jsonrpc: string; emittedAtMs?: number }) => m.jsonrpc === "2.0" && m.emittedAtMs === undefined)).toBe(true);
        expect(rpc[2].params).toEqual(deltas[0].params);
      });
    }
  }

  it("delivers chunks one per event-loop turn", async () => {
    const seen: number[] = [];
    let immediates = 0;
    const timer = setInterval(() => {}, 1000);
    const counting = (async () => {
      for (let i = 0; i < 3; i++) {
        await new Promise((resolve) => setImmediate(resolve));
        immediates++;
      }
    })();
    await workloads.deliver([Buffer.from("a"), Buffer.from("b"), Buffer.from("c")], (piece: Buffer) => seen.push(immediates + piece.length * 0));
    await counting;
    clearInterval(timer);
    expect(seen).toEqual([0, 1, 2]);
  });
});

describe("tools/bench report", () => {
  const s = (median: number) => ({ min: median, median, max: median, n: 7 });
  const row = (label: string, ratio: number, ms: number[] = [100]) => ({ label, ratio: s(ratio), ms: s(ms[0] ?? 100), floorMs: s(50), samples: { ms } });
  const decodeOf = (client: number, framing: number, peer: number, validated: number[]) => ({
    workloads: [report.WORKLOAD_240, report.WORKLOAD_20K].map((name: string) => ({
      name,
      rows: {
        framing: row("framing", framing),
        framingDeltas: row("framing, delta lines", framing + 0.05),
        client: row("client", client, [100, 100, 100]),
        clientValidated: row("validated", client, validated),
        mcpClient: row("MCP", peer / 2),
        vscodeNdjson: row("vscode ndjson", peer),
      },
    })),
  });
  const results = (overrides: Record<string, unknown>) => ({
    machine: { cpuModel: "test", cores: 2, node: "v20", platform: "linux x64", memoryGiB: 1, loadAverage: [0, 0, 0] },
    finishedAt: "now",
    ...overrides,
  });

  it("marks the decode targets met and not met", () => {
    const met = report.evaluateTargets(results({ decode: decodeOf(0.7, 0.95, 0.2, [105, 108, 109]) }));
    const byName = (targets: { target: string; met: boolean | undefined }[], part: string) => targets.filter((t) => t.target.includes(part));
    expect(byName(met, "≥ 0.6×").map((t) => t.met)).toEqual([true, true]);
    expect(byName(met, "best peer").map((t) => t.met)).toEqual([true, true]); // 0.7 / 0.2 = 3.5×
    expect(byName(met, "framing").map((t) => t.met)).toEqual([true, true]);
    expect(byName(met, "validation on ≤").map((t) => t.met)).toEqual([true, true]);

    const notMet = report.evaluateTargets(results({ decode: decodeOf(0.5, 0.85, 0.2, [120, 130, 125]) }));
    expect(byName(notMet, "≥ 0.6×").map((t) => t.met)).toEqual([false, false]);
    expect(byName(notMet, "best peer").map((t) => t.met)).toEqual([false, true]); // 2.5×: under 3, over 2
    expect(byName(notMet, "framing").map((t) => t.met)).toEqual([true, false]); // delta lines alone 0.90×, the whole stream 0.85×
    expect(byName(notMet, "validation on ≤").map((t) => t.met)).toEqual([false, false]);
    // Stages that did not run are neither met nor not met.
    expect(byName(notMet, "heap").map((t) => t.met)).toEqual([undefined, undefined, undefined]);
  });

  it("says beside a missed client target what a client doing nothing but decode and parse each line reached", () => {
    const decode = decodeOf(0.45, 0.6, 0.4, [100, 100, 100]);
    for (const w of decode.workloads) Object.assign(w.rows, { floorBytes: row("from bytes", 0.62) });
    const figures = report.evaluateTargets(results({ decode })).map((t: { target: string; figure: string }) => `${t.target}: ${t.figure}`);
    expect(figures).toContain(
      `full client → text$ ≥ 0.6× the floor, validation off (${report.WORKLOAD_20K}): 0.45× (a client doing nothing but decode and parse each line: 0.62×)`,
    );
    expect(figures).toContain(
      `full client ≥ 2× the best peer's full dispatch (${report.WORKLOAD_20K}): 1.13× (best peer: vscode ndjson; a client doing nothing but decode and parse each line would lead it by 1.55×)`,
    );
    // A met target carries no such note.
    const fast = decodeOf(0.7, 0.95, 0.2, [100, 100, 100]);
    for (const w of fast.workloads) Object.assign(w.rows, { floorBytes: row("from bytes", 0.75) });
    const met = report.evaluateTargets(results({ decode: fast }));
    expect(met.map((t: { figure: string }) => t.figure).join("\n")).not.toContain("decode and parse each line");
  });

  it("marks the memory and long-line targets", () => {
    const line = (ms: number) => ({ msPerMib: ms, ms: s(ms) });
    const targets = report.evaluateTargets(
      results({
        memory: { deltaTextBytes: 32, slopeBytesPerDelta: 59, during: [{ deltas: 10, growthBytes: 590, bytesPerDelta: 59 }], afterCloseGrowthBytes: 300_000 },
        longLines: {
          rows: [
            { sizeMib: 8, floorBytes: line(1), ours: line(2), vscode: line(2.6) },
            { sizeMib: 64, floorBytes: line(1.4), ours: line(2.7), vscode: line(2.6) },
          ],
        },
      }),
    );
    const status = Object.fromEntries(targets.map((t: { target: string; met: boolean | undefined }) => [t.target, report.status(t.met)]));
    expect(status["heap kept during a turn ≤ the deltas' own text, within 2% (ASCII text)"]).toBe("NOT MET");
    expect(status["heap kept during a turn ≤ the deltas' own text, within 2% (typographic text, one delta in 40 with a ’)"]).toBe("not run");
    const heap = (slopeBytesPerDelta: number) =>
      report
        .evaluateTargets(results({ memory: { deltaTextBytes: 32, slopeBytesPerDelta, during: [], afterCloseGrowthBytes: 0 } }))
        .find((t: { target: string }) => t.target.startsWith("heap kept")).met;
    expect([heap(32), heap(32.6), heap(32.7)]).toEqual([true, true, false]);
    expect(status["heap growth after close ≤ 1 MB"]).toBe("met");
    expect(status["long lines: ms/MiB at 64 MiB within 1.15× of 8 MiB"]).toBe("NOT MET"); // 1.35×
    expect(targets.find((t: { target: string }) => t.target.startsWith("long lines: ms/MiB")).figure).toBe("1.35× (the floor from bytes: 1.40×)");
    expect(status["long lines: no slower than vscode-jsonrpc at any size"]).toBe("NOT MET"); // 64 MiB
  });

  it("marks the Effect binding's overhead target and prints its rows", () => {
    const overhead = (ratio: number) => [
      { name: report.WORKLOAD_240, coreMs: s(100), effectMs: s(100 * ratio), ratio: s(ratio) },
      { name: report.WORKLOAD_20K, coreMs: s(100), effectMs: s(100), ratio: s(1.02) },
    ];
    const effect = (ratio: number) => ({
      overhead: overhead(ratio),
      bundles: { binding: { minBytes: 1, gzipBytes: 10_500 }, byHand: { minBytes: 1, gzipBytes: 10_000 } },
      kept: { deltas: 1000, core: { growthBytes: 1, bytesPerDelta: 37 }, effect: { growthBytes: 1, bytesPerDelta: 38 } },
    });
    const targets = (ratio: number) =>
      report
        .evaluateTargets(results({ effect: effect(ratio) }))
        .filter((t: { target: string }) => t.target.startsWith("Effect text Stream"))
        .map((t: { met: boolean | undefined }) => report.status(t.met));
    expect(targets(1.08)).toEqual(["met", "met"]);
    expect(targets(1.12)).toEqual(["NOT MET", "met"]);
    expect(
      report
        .evaluateTargets(results({}))
        .filter((t: { target: string }) => t.target.startsWith("Effect"))
        .map((t: { met: unknown }) => t.met),
    ).toEqual([undefined, undefined]);
    const table = report.renderSummary(results({ effect: effect(1.12) }));
    expect(table).toContain("the binding adds 500 B");
    expect(table).toContain("37.0 B / 38.0 B per delta");
    expect(table).toContain("1.120× core's time (+12.0%)");
  });

  it("prints one table with the targets, and rewrites only what lies between the README's markers", () => {
    const r = results({ decode: decodeOf(0.7, 0.95, 0.2, [105, 108, 109]) });
    const table = report.renderSummary(r);
    expect(table.split("\n")[0]).toMatch(/^\| area +\| what +\| figure +\| target +\|$/);
    expect(table).toContain("| met ");
    expect(table).toContain("| not run ");
    const readme = readFileSync(join(ROOT, "packages", "core", "README.md"), "utf8");
    const rewritten = report.replaceBetweenMarkers(readme, report.renderReadmeSection(r));
    const before = readme.slice(0, readme.indexOf("<!-- bench:start"));
    const after = readme.slice(readme.indexOf(report.README_END) + report.README_END.length);
    expect(rewritten.startsWith(before)).toBe(true);
    expect(rewritten.endsWith(after)).toBe(true);
    expect(rewritten).toContain("test, 2 cores");
    expect(report.replaceBetweenMarkers(rewritten, report.renderReadmeSection(r))).toBe(rewritten);
  });

  it("says when stages were measured at different times (--update), with the load of each, instead of one load", () => {
    const at = (time: string, load: number) => ({ at: `2026-11-24T${time}:00.000Z`, loadAverage: [load, 0, 0] });
    const one = report.renderReadmeSection(results({ measuredAt: { decode: at("06:08", 1.5), memory: at("06:08", 1.5) } }));
    expect(one).toContain("load average at the start 0 0 0");
    expect(one).not.toContain("different times");
    const two = report.renderReadmeSection(results({ measuredAt: { decode: at("06:08", 1.5), memory: at("06:44", 9) } }));
    expect(two).toContain("decode 2026-11-24 06:08 UTC (load 1.5), memory 2026-11-24 06:44 UTC (load 9)");
    expect(two).not.toContain("load average at the start");
  });
});
