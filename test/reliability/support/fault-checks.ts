// What every fault case checks once its fault hit, whichever server it hit: how each promise the
// caller holds ended and how long after the fault, which streams have not ended, which rejections
// went unhandled, and which processes are still there.
import { readdirSync, readFileSync } from "node:fs";
import type { Observable } from "rxjs";

/** How a promise ended, and when, counted from the fault. */
export type Outcome =
  | { readonly settled: "resolved"; readonly value: unknown; readonly afterMs: number }
  | { readonly settled: "rejected"; readonly error: unknown; readonly afterMs: number };

/**
 * The moment a fault is injected, and the promises that must settle because of it. Promises are
 * tracked before the fault (so a rejection is never unhandled) and timed from `inject()`.
 */
export class FaultClock {
  #at: number | undefined;

  /** Injects the fault now (the callback kills, crashes or stalls the server). */
  inject(fault: () => void): void {
    this.#at = performance.now();
    fault();
  }

  /** Milliseconds since the fault (0 before it). */
  sinceFault(): number {
    return performance.now() - (this.#at ?? performance.now());
  }

  /** The promise's outcome, with how long after the fault it came. Never rejects. */
  track(promise: Promise<unknown>): Promise<Outcome> {
    return promise.then(
      (value) => ({ settled: "resolved", value, afterMs: this.sinceFault() }),
      (error: unknown) => ({ settled: "rejected", error, afterMs: this.sinceFault() }),
    );
  }
}

/** The error of a rejected outcome; fails loudly when it resolved instead. */
export function rejection(outcome: Outcome): unknown {
  if (outcome.settled !== "rejected") throw new Error(`expected a rejection, but it resolved with ${JSON.stringify(outcome.value)}`);
  return outcome.error;
}

/** The names of promises still pending after `withinMs`: each one would hang its caller. */
export async function unsettledAfter(promises: Readonly<Record<string, Promise<unknown>>>, withinMs: number): Promise<string[]> {
  const pending = new Set(Object.keys(promises));
  for (const [name, promise] of Object.entries(promises)) {
    promise.then(
      () => pending.delete(name),
      () => pending.delete(name),
    );
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([Promise.allSettled(Object.values(promises)), new Promise((resolve) => (timer = setTimeout(resolve, withinMs)))]);
  clearTimeout(timer);
  return [...pending];
}

/** Subscribes to each stream until it ends; `unended()` names those that neither completed nor errored. */
export function watchStreams(streams: Readonly<Record<string, Observable<unknown>>>): { unended(): string[] } {
  const ended = new Set<string>();
  for (const [name, stream] of Object.entries(streams)) {
    stream.subscribe({ complete: () => ended.add(name), error: () => ended.add(name) });
  }
  return { unended: () => Object.keys(streams).filter((name) => !ended.has(name)) };
}

/** Collects unhandled rejections while installed (vitest reports them too, but after the test). */
/**
 * An operator who never answers an approval: the handler's promise ends only when its signal
 * fires (the server went away, or withdrew the request). `arrived` resolves when the request came;
 * `signalFired` is then the handler's outcome, timed by `clock`; `signal` is the handler's signal.
 */
export function neverAnsweredApproval(clock: FaultClock): {
  readonly handler: (params: unknown, context: { readonly signal: AbortSignal }) => Promise<never>;
  readonly arrived: Promise<void>;
  readonly signalFired: () => Promise<Outcome>;
  readonly signal: () => AbortSignal | undefined;
} {
  let signalFired: Promise<Outcome> | undefined;
  let signal: AbortSignal | undefined;
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  return {
    handler: (_params, context) => {
      signal = context.signal;
      const aborted = new Promise<never>((_resolve, reject) => context.signal.addEventListener("abort", () => reject(context.signal.reason), { once: true }));
      signalFired = clock.track(aborted);
      arrive();
      return aborted;
    },
    arrived,
    signalFired: () => signalFired!,
    signal: () => signal,
  };
}

export function unhandledRejections(): { readonly seen: unknown[]; install(): void; uninstall(): void } {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => seen.push(reason);
  return {
    seen,
    install: () => void process.on("unhandledRejection", listener),
    uninstall: () => void process.off("unhandledRejection", listener),
  };
}

/**
 * Every process below `pid` (children, their children …), read from /proc; empty where there is no
 * /proc. Taken before a kill: a SIGKILL ends only the server, and its children would live on.
 */
export function descendantsOf(pid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // ended meanwhile
    }
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ")".
    const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  for (let queue = [pid]; queue.length > 0; ) {
    const next = children.get(queue.shift()!) ?? [];
    found.push(...next);
    queue.push(...next);
  }
  return found;
}

/** Milliseconds, as the printed figures show them. */
export const ms = (value: number) => `${value.toFixed(1)} ms`;

/** Measured times by what they measure, printed as one line each: the value, or median and max over rounds. */
export class Figures {
  readonly #values = new Map<string, number[]>();

  add(what: string, milliseconds: number): void {
    this.#values.set(what, [...(this.#values.get(what) ?? []), milliseconds]);
  }

  lines(): string[] {
    return [...this.#values].map(([what, values]) => {
      if (values.length === 1) return `${what}: ${ms(values[0]!)}`;
      const sorted = [...values].sort((a, b) => a - b);
      return `${what}: median ${ms(sorted[Math.floor(sorted.length / 2)]!)}, max ${ms(sorted.at(-1)!)} (${sorted.length} rounds)`;
    });
  }
}
