// Process control for the case script on Node and Bun (Bun implements `process` like Node).
import { parseConformanceConfig } from "../conformance-config.mjs";

export const nodeProcess = {
  readConfig: () => parseConformanceConfig(process.env.CONFORMANCE_CONFIG),
  killProcess: (pid) => process.kill(pid, "SIGKILL"),
  processExists(pid) {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      return error.code === "EPERM"; // exists, but not ours to signal
    }
  },
  exit: (code) => process.exit(code),
};
