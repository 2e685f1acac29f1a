import { readdirSync, readFileSync } from "node:fs";

/**
 * Freezes a process with SIGSTOP and resolves once every one of its threads is stopped: the
 * signal is delivered asynchronously, and a thread already running could still read a request
 * and answer it in the meantime. Where there is no /proc it only sends the signal.
 */
export async function stopProcess(pid: number, timeoutMs = 2000): Promise<void> {
  process.kill(pid, "SIGSTOP");
  const deadline = Date.now() + timeoutMs;
  while (!allThreadsStopped(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} did not stop within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

function allThreadsStopped(pid: number): boolean {
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return true; // no /proc (or the process is gone): nothing more to wait for
  }
  return threads.every((tid) => {
    try {
      // The state is the first field after the parenthesised command name.
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      return /^[tT]/.test(stat.slice(stat.lastIndexOf(")") + 2));
    } catch {
      return true; // the thread ended
    }
  });
}
