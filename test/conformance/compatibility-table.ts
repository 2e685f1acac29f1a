// The codex version × case table the run prints after the path × case one: per pairing of a codex
// server and a client protocol, how many of the paths it ran pass each case, and what the
// version-check case found (the same on every path when all is well).
import type { TableRow } from "./results-table.js";

export interface CompatibilityRow {
  /** The codex version the server runs. */
  readonly server: string;
  /** The codex version the client's protocol was generated from, and where it came from. */
  readonly protocol: string;
  /** One row per path run with this pairing (cells in column order). */
  readonly paths: readonly TableRow[];
}

/**
 * `columns` are the case labels; `factsColumn` is the index of the case whose pass detail is listed
 * under the table as the pairing's version facts.
 */
export function formatCompatibilityTable(title: string, columns: readonly string[], rows: readonly CompatibilityRow[], factsColumn: number): string {
  const body = rows.map((row) => [
    row.server,
    row.protocol,
    ...columns.map((_, column) => {
      const passed = row.paths.filter((path) => path.cells[column]?.pass).length;
      return `${passed === row.paths.length ? "pass" : "FAIL"} ${passed}/${row.paths.length}`;
    }),
  ]);
  const header = ["codex server", "client protocol", ...columns];
  const widths = header.map((_, column) => Math.max(...[header, ...body].map((line) => line[column]!.length)));
  const line = (cells: readonly string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(" | ")} |`;
  const rule = `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`;
  const facts = rows.map((row) => {
    const details = [...new Set(row.paths.flatMap((path) => (path.cells[factsColumn]?.pass ? [path.cells[factsColumn]!.detail] : [])))];
    return `  codex ${row.server} × protocol ${row.protocol}: ${details.length > 0 ? details.join(" | ") : "(no path passed the version check)"}`;
  });
  const allPass = rows.every((row) => row.paths.every((path) => path.cells.every((cell) => cell.pass)));
  return [
    `${title}: cells are paths passing / paths run${allPass ? "; all pass" : "; failures are listed under the path table"}`,
    line(header),
    rule,
    ...body.map(line),
    "",
    `${columns[factsColumn]}:`,
    ...facts,
  ].join("\n");
}
