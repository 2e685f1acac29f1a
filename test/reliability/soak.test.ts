// The soak program (tools/soak.mjs) in a bounded size: 200 000 notifications through the whole
// client (1 000 000 with RELIABILITY_LONG=1) in a child process of its own, so the heap it measures
// is not shared with the test runner. A memory bound, not a timing: the heap is measured after
// full collections, before and after, with the client still open.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import { RELIABILITY_LONG, recordReliability } from "./support/reliability-report.js";

const SOAK = fileURLToPath(new URL("../../tools/soak.mjs", import.meta.url));
const MESSAGES = RELIABILITY_LONG ? 1_000_000 : 200_000;
const BOUND_MB = 10;

interface SoakReport {
  readonly sent: number;
  readonly delivered: number;
  readonly lost: number;
  readonly damagedTurns: number;
  readonly growthMb: number;
  readonly leftOver: Readonly<Record<string, number>>;
}

let report: SoakReport | undefined;
afterAll(() => {
  if (report)
    recordReliability({
      area: "soak: notifications through the client",
      cases: 1,
      messagesChecked: report.delivered,
      messagesLost: report.sent - report.delivered,
    });
});

it(
  `streams ${MESSAGES.toLocaleString("en")} deltas to a text$ subscriber: every one delivered, heap growth ≤ ${BOUND_MB} MB`,
  async () => {
    // The program exits 1 when its own checks fail; its figures say why, so read them either way.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--expose-gc", SOAK, "--messages", String(MESSAGES), "--bound-mb", String(BOUND_MB), "--json"],
      { maxBuffer: 1024 * 1024 },
    ).catch((error: { stdout?: string; stderr?: string; message: string }) => {
      if (!error.stdout?.trim()) throw new Error(`${error.message}\n${error.stderr ?? ""}`);
      return { stdout: error.stdout };
    });
    const lines = stdout.trim().split("\n");
    report = JSON.parse(lines.at(-1)!) as SoakReport;
    expect(report, lines.join("\n")).toMatchObject({ sent: MESSAGES, delivered: MESSAGES, lost: 0, damagedTurns: 0 });
    expect(report.growthMb, lines.join("\n")).toBeLessThanOrEqual(BOUND_MB);
    expect(Object.values(report.leftOver)).toEqual([0, 0, 0]);
  },
  RELIABILITY_LONG ? 10 * 60_000 : 120_000,
);
