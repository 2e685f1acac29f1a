// What each reliability test contributes to the summary table printed at the end of the run
// (test/reliability/global-setup.ts): one JSON line per record in a run-scoped folder, since
// test files run in separate workers.
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";

export interface ReliabilityRecord {
  /** The row of the table, e.g. "framing properties", "faults: real server". */
  readonly area: string;
  readonly cases: number;
  readonly faults?: number;
  readonly messagesChecked?: number;
  readonly messagesLost?: number;
}

/** Whether the long local mode is on (`RELIABILITY_LONG=1`): more cases, bigger soaks. */
export const RELIABILITY_LONG = process.env.RELIABILITY_LONG === "1";

export function recordReliability(record: ReliabilityRecord): void {
  appendFileSync(join(inject("reliabilityReportDir"), `${process.pid}.jsonl`), `${JSON.stringify(record)}\n`);
}

declare module "vitest" {
  export interface ProvidedContext {
    reliabilityReportDir: string;
  }
}
