// Everything that would kill a user's process, caught while a fuzz case runs: uncaught exceptions,
// unhandled rejections, and errors RxJS reports as unhandled (a subscriber's `next` that threw:
// RxJS rethrows them from a setTimeout, i.e. as an uncaught exception, unless
// `config.onUnhandledError` is set). Vitest listens to the process events too and fails the file
// for them after the fact; this records them where the case that caused them can be named.
import { config } from "rxjs";

export interface Crash {
  readonly source: "rxjs onUnhandledError" | "uncaughtException" | "unhandledRejection";
  readonly error: unknown;
}

export class CrashWatch {
  readonly #seen: Crash[] = [];
  #previous: ((error: unknown) => void) | null | undefined;
  readonly #onUncaught = (error: unknown) => void this.#seen.push({ source: "uncaughtException", error });
  readonly #onRejection = (error: unknown) => void this.#seen.push({ source: "unhandledRejection", error });

  install(): void {
    this.#previous = config.onUnhandledError;
    config.onUnhandledError = (error: unknown) => void this.#seen.push({ source: "rxjs onUnhandledError", error });
    process.on("uncaughtException", this.#onUncaught);
    process.on("unhandledRejection", this.#onRejection);
  }

  uninstall(): void {
    config.onUnhandledError = this.#previous ?? null;
    process.off("uncaughtException", this.#onUncaught);
    process.off("unhandledRejection", this.#onRejection);
  }

  /** What was caught since the last call. RxJS reports after a setTimeout: call after `settleReports()`. */
  take(): Crash[] {
    return this.#seen.splice(0);
  }
}

/** Lets RxJS's setTimeout reports and Node's unhandled-rejection checks run. */
export async function settleReports(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  await new Promise((resolve) => setImmediate(resolve));
}

export function describeCrash(crash: Crash): string {
  const error = crash.error;
  const text = error instanceof Error ? `${error.name}: ${error.message}` : safeString(error);
  const frame = error instanceof Error ? error.stack?.split("\n").find((line) => line.includes("/packages/")) : undefined;
  return `${crash.source}: ${text}${frame ? ` (${frame.trim()})` : ""}`;
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
