import { spawn } from "node:child_process";

/**
 * Opens `url` in the user's browser (`open` on macOS, `start` on Windows, `xdg-open` elsewhere),
 * without waiting for it. Resolves false when there is no such command (then print the URL).
 */
export function openBrowser(url: string): Promise<boolean> {
  const [command, args] =
    process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", '""', url.replaceAll("&", "^&")]]
        : ["xdg-open", [url]];
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "ignore", detached: true });
    child.once("error", () => resolve(false));
    child.once("spawn", () => {
      child.unref();
      resolve(true);
    });
  });
}
