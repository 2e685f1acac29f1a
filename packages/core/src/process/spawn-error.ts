/**
 * Why a process could not start, as a user can act on it. Node and Bun report a missing working
 * directory as ENOENT of the command, so `directoryExists` tells the two apart.
 */
export function describeSpawnError(command: string, cwd: string | undefined, error: unknown, directoryExists: (path: string) => boolean): Error {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  let reason: string;
  if (code === "ENOENT") {
    reason = cwd !== undefined && !directoryExists(cwd) ? `its working directory ${cwd} does not exist` : `${command} does not exist`;
  } else if (code === "EACCES" || code === "ENOEXEC") {
    reason = `${command} is not executable`;
  } else {
    reason = error instanceof Error ? error.message : String(error);
  }
  return new Error(`could not start ${command}: ${reason} (${typeof code === "string" ? code : "spawn error"})`, { cause: error });
}
