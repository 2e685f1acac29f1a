// Runs one path's case script as a child process and collects its JSON result lines. The child gets
// its own process group so that, however it ends (even by the hard timeout), the group is SIGKILLed
// and no codex server it started is left behind.
import { spawn } from "node:child_process";
import { stripAnsi } from "@codex-rpc/core/process";

export interface CaseResult {
  readonly case: string;
  readonly pass: boolean;
  readonly ms: number;
  readonly detail: string;
}

export interface CaseScriptRun {
  readonly results: ReadonlyMap<string, CaseResult>;
  /** How the child ended, for cases it never reported: exit code/signal, timeout, and its first error line. */
  readonly ending: string;
}

export interface CaseScriptOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly timeoutMs: number;
}

export function runCaseScript(options: CaseScriptOptions): Promise<CaseScriptRun> {
  return new Promise((resolve) => {
    const results = new Map<string, CaseResult>();
    let stdoutRest = "";
    let stderr = "";
    let timedOut = false;
    const child = spawn(options.command, [...options.args], { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"], detached: true });

    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // the group is already empty
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);

    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      const lines = (stdoutRest + chunk).split("\n");
      stdoutRest = lines.pop() ?? "";
      for (const line of lines) {
        const result = parseResultLine(line);
        if (result) results.set(result.case, result);
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-20_000);
    });

    let spawnError: Error | undefined;
    child.once("error", (error) => (spawnError = error));
    // Whatever is left in the group once the script exits is a server it did not stop, and may hold
    // the script's stdout open (delaying 'close'): kill it.
    child.once("exit", killGroup);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      const result = parseResultLine(stdoutRest);
      if (result) results.set(result.case, result);
      const how = spawnError
        ? `could not start ${options.command}: ${spawnError.message}`
        : timedOut
          ? `case script killed after the ${options.timeoutMs} ms hard timeout`
          : `case script ended (${signal ? `signal ${signal}` : `exit code ${code}`})`;
      const errorLine = firstErrorLine(stderr);
      resolve({ results, ending: errorLine ? `${how}: ${errorLine}` : how });
    });
  });
}

function parseResultLine(line: string): CaseResult | undefined {
  if (!line.startsWith("{")) return undefined;
  try {
    const value = JSON.parse(line) as Partial<CaseResult>;
    return typeof value.case === "string" && typeof value.pass === "boolean" ? (value as CaseResult) : undefined;
  } catch {
    return undefined;
  }
}

/** The line that says what went wrong (Node, Deno and Bun all print one naming the error), else the last line. */
function firstErrorLine(stderr: string): string | undefined {
  const lines = stripAnsi(stderr)
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.find((line) => /\berror\b/i.test(line)) ?? lines.at(-1);
}
