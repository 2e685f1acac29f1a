// How the schema fuzzer runs its properties: in rounds of fc.assert until a number of cases has run
// (a run is a batch of cases, so the count of runs follows from the cases each one reports), on
// sessions reused while healthy. In explore mode (FUZZ_EXPLORE) it uses fc.check instead: each
// shrunk counterexample is collected and the steps it holds are left out of the next rounds, so one
// run lists many distinct findings rather than the first.
import fc from "fast-check";

/** A batch's violations, thrown so that fast-check shrinks the batch. */
export class Violations extends Error {
  constructor(readonly violations: readonly string[]) {
    super(
      `${violations.length} violation(s):\n  ${violations.slice(0, 12).join("\n  ")}${violations.length > 12 ? `\n  … ${violations.length - 12} more` : ""}`,
    );
  }
}

/** Sessions by key, reused while healthy; a run with a violation (or a throw) closes its session, and the next run gets a fresh one. */
export class SessionPool<S extends { close(): Promise<void> }> {
  readonly #open = new Map<string, S>();

  constructor(private readonly opener: (key: string) => Promise<S>) {}

  async use<R extends { violations: readonly string[] }>(key: string, run: (session: S) => Promise<R>): Promise<R> {
    let session = this.#open.get(key);
    if (!session) this.#open.set(key, (session = await this.opener(key)));
    let outcome: R;
    try {
      outcome = await run(session);
    } catch (error) {
      // The harness itself failed (a bug here, or something thrown at it): no later run may see what this one left.
      await this.discard(key);
      throw error;
    }
    if (outcome.violations.length > 0) await this.discard(key);
    return outcome;
  }

  async discard(key: string): Promise<void> {
    const session = this.#open.get(key);
    this.#open.delete(key);
    await Promise.race([session?.close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 1_000))]);
  }

  async closeAll(): Promise<void> {
    for (const key of [...this.#open.keys()]) await this.discard(key);
  }
}

export interface Finding {
  readonly test: string;
  readonly counterexample: string;
  readonly error: string;
}

export interface RoundsOptions<T> {
  readonly test: string;
  /** Cases still to run (the property's runs add to the count this reads). */
  readonly remaining: () => number;
  /** Cases per run on average: how many runs a round asks for. */
  readonly casesPerRun: number;
  /** The property, leaving out what `exclude` names (explore mode). */
  readonly property: (exclude: ReadonlySet<string>) => fc.IAsyncProperty<[T]>;
  /** What to leave out once `value` was a counterexample (explore mode). */
  readonly exclusionKeys: (value: T) => readonly string[];
  readonly seed: number;
  /** 0: fail at the first counterexample (fc.assert). n > 0: collect up to n findings into `findings`. */
  readonly explore: number;
  readonly findings: Finding[];
}

/** Rounds of the property (seeds seed, seed + 1, …) until no cases remain, or `explore` findings were collected. */
export async function runRounds<T>(options: RoundsOptions<T>): Promise<void> {
  const exclude = new Set<string>();
  for (let round = 0; options.remaining() > 0; round++) {
    const numRuns = Math.max(1, Math.ceil(options.remaining() / options.casesPerRun));
    if (!options.explore) {
      await fc.assert(options.property(exclude), { seed: options.seed + round, numRuns });
      continue;
    }
    const details = await fc.check(options.property(exclude), { seed: options.seed + round, numRuns });
    if (!details.failed) continue;
    const counterexample = details.counterexample?.[0];
    const error = String((details.errorInstance as Error | undefined)?.message ?? details.errorInstance);
    options.findings.push({ test: options.test, counterexample: fc.stringify(counterexample), error });
    console.log(`FINDING ${options.findings.length} (${options.test}): ${fc.stringify(counterexample)}\n  ${error.replaceAll("\n", "\n  ")}`);
    for (const key of counterexample === undefined ? [] : options.exclusionKeys(counterexample)) exclude.add(key);
    if (options.findings.length >= options.explore) return;
  }
}
