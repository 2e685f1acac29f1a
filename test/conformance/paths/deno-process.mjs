// Process control for the case script on Deno, with Deno's own APIs.
import { parseConformanceConfig } from "../conformance-config.mjs";

export const denoProcess = {
  readConfig: () => parseConformanceConfig(Deno.env.get("CONFORMANCE_CONFIG")),
  killProcess: (pid) => Deno.kill(pid, "SIGKILL"),
  processExists(pid) {
    try {
      Deno.kill(pid, 0); // signal 0: only checks the process is there
      return true;
    } catch (error) {
      return !(error instanceof Deno.errors.NotFound);
    }
  },
  exit: (code) => Deno.exit(code),
};
