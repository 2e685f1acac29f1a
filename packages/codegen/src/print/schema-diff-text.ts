import type { ChangeNote, Severity } from "../analyse/change-severity.js";
import type { DiffEntry, DiffSection, SchemaDiff } from "../analyse/schema-diff.js";

const SECTION_TITLES: Readonly<Record<DiffSection, string>> = {
  clientRequest: "client requests",
  serverRequest: "server requests",
  serverNotification: "server notifications",
  clientNotification: "client notifications",
  type: "types ([sent] the client writes it, [received] the server does, [unused] no message uses it)",
};

const SYMBOLS = { added: "+", removed: "-", changed: "~" } as const;
const NOTES: Readonly<Record<ChangeNote, string>> = {
  "exhaustive-matching": "additive, new value for exhaustive matching",
  "must-answer": "additive, must be answered",
};
const COLUMN = 64;

/** The diff as text: a summary line per flavor, then each section's entries with their details. */
export function formatSchemaDiff(diff: SchemaDiff): string[] {
  const lines = [`codex ${diff.from} → ${diff.to}`];
  for (const flavor of diff.flavors) {
    const { breaking, additive, exhaustive } = flavor.counts;
    const of = exhaustive > 0 ? ` (${exhaustive} of them a new value for exhaustive matching)` : "";
    lines.push("", `${flavor.flavor}: ${breaking} breaking, ${additive} additive${of}`);
    if (flavor.entries.length === 0) lines.push("  no changes");
    for (const section of Object.keys(SECTION_TITLES) as DiffSection[]) {
      const entries = flavor.entries.filter((entry) => entry.section === section);
      if (entries.length === 0) continue;
      lines.push(`  ${SECTION_TITLES[section]}:`);
      for (const entry of entries) lines.push(...entryLines(entry));
    }
  }
  return lines;
}

function entryLines(entry: DiffEntry): string[] {
  const where = entry.section === "type" ? ` [${entry.directions.join(", ") || "unused"}]` : "";
  const head = `    ${SYMBOLS[entry.change]} ${entry.name}${where}`;
  if (entry.change !== "changed") return [column(head, entry.severity, entry.note)];
  const lines = [`${head}`];
  for (const detail of entry.details) {
    const path = detail.path.startsWith(entry.name) ? detail.path.slice(entry.name.length) : detail.path;
    const at = path === "" ? "" : `${path.replace(/^\./, "")}: `;
    lines.push(column(`        ${at}${detail.detail}`, detail.severity, detail.note));
  }
  return lines;
}

function column(text: string, severity: Severity, note: ChangeNote | undefined): string {
  const label = severity === "breaking" ? "BREAKING" : note ? NOTES[note] : "additive";
  return `${text.length < COLUMN ? text.padEnd(COLUMN) : `${text}  `}${label}`;
}
