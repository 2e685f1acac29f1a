// The path × case table the run prints: pass / FAIL[n] per cell, and the detail of failure n below.

export interface TableCell {
  readonly pass: boolean;
  readonly ms?: number;
  readonly detail: string;
}

export interface TableRow {
  readonly path: string;
  /** One cell per column, in order. */
  readonly cells: readonly TableCell[];
}

export function formatResultsTable(title: string, columns: readonly string[], rows: readonly TableRow[]): string {
  const failures: string[] = [];
  const body = rows.map((row) => [
    row.path,
    ...row.cells.map((cell, index) => {
      if (cell.pass) return cell.ms === undefined ? "pass" : `pass ${formatMs(cell.ms)}`;
      failures.push(`[${failures.length + 1}] ${row.path} × ${columns[index]}: ${cell.detail}`);
      return `FAIL[${failures.length}]`;
    }),
  ]);
  const header = ["path", ...columns];
  const widths = header.map((_, column) => Math.max(...[header, ...body].map((line) => line[column]!.length)));
  const line = (cells: readonly string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(" | ")} |`;
  const rule = `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`;
  const passed = rows.reduce((count, row) => count + row.cells.filter((cell) => cell.pass).length, 0);
  const total = rows.reduce((count, row) => count + row.cells.length, 0);
  return [
    `${title}: ${passed}/${total} cells pass`,
    line(header),
    rule,
    ...body.map(line),
    ...(failures.length > 0 ? ["", "Failures:", ...failures] : []),
  ].join("\n");
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)}s` : `${Math.round(ms)}ms`;
}
