// Prints the reliability summary once every test file has run: cases, faults injected, messages
// checked and lost, per area (see support/reliability-report.ts).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import type { ReliabilityRecord } from "./support/reliability-report.js";

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), "codex-rpc-reliability-"));
  project.provide("reliabilityReportDir", dir);
  return () => {
    const records = readdirSync(dir).flatMap((file) =>
      readFileSync(join(dir, file), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as ReliabilityRecord),
    );
    rmSync(dir, { recursive: true, force: true });
    if (records.length > 0) console.log(`\n${summaryTable(records)}\n`);
  };
}

type Row = { -readonly [K in keyof ReliabilityRecord]-?: ReliabilityRecord[K] };

function summaryTable(records: readonly ReliabilityRecord[]): string {
  const byArea = new Map<string, Row>();
  for (const record of records) {
    const row = byArea.get(record.area) ?? { area: record.area, cases: 0, faults: 0, messagesChecked: 0, messagesLost: 0 };
    row.cases += record.cases;
    row.faults += record.faults ?? 0;
    row.messagesChecked += record.messagesChecked ?? 0;
    row.messagesLost += record.messagesLost ?? 0;
    byArea.set(record.area, row);
  }
  const rows = [...byArea.values()].sort((a, b) => a.area.localeCompare(b.area));
  const total: Row = { area: "total", cases: 0, faults: 0, messagesChecked: 0, messagesLost: 0 };
  for (const row of rows) {
    total.cases += row.cases;
    total.faults += row.faults;
    total.messagesChecked += row.messagesChecked;
    total.messagesLost += row.messagesLost;
  }
  const header = ["area", "cases run", "faults injected", "messages checked", "messages lost"];
  const cells = [...rows, total].map((row) =>
    [row.area, row.cases, row.faults, row.messagesChecked, row.messagesLost].map((value) => (typeof value === "number" ? value.toLocaleString("en") : value)),
  );
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((row) => String(row[i]).length)));
  const line = (values: readonly string[]) => `| ${values.map((value, i) => (i === 0 ? value.padEnd(widths[i]!) : value.padStart(widths[i]!))).join(" | ")} |`;
  const mode = process.env.RELIABILITY_LONG === "1" ? "long mode" : "CI mode (RELIABILITY_LONG=1 for the long one)";
  return [`reliability summary, ${mode}`, line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...cells.map(line)].join("\n");
}
