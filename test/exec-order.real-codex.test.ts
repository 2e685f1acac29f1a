// client.exec against codex 0.169.0: a command's requests reach codex after its command/exec and in
// call order, although the runner and the base64 encoder load on demand. A stranger's review found
// terminate() overtaking command/exec (codex refused it, `sleep 5` ran to the end, exit 0) and
// write(x); end() closing stdin first (codex: "stdin is already closed", the output empty).
import { afterEach, expect, it } from "vitest";
import { OfflineCodex } from "./support/offline-codex.js";

let codex: OfflineCodex | undefined;
afterEach(async () => {
  await codex?.dispose();
  codex = undefined;
});

it("terminate() right after the first exec ends the command (exit 137)", async () => {
  codex = await OfflineCodex.start();
  const command = codex.client.exec(["sleep", "5"], { cwd: codex.workspace });
  await command.terminate();
  expect((await command.exit).exitCode).toBe(137);
  expect(codex.clientRequests.map((r) => r.method).filter((m) => m.startsWith("command/"))).toEqual(["command/exec", "command/exec/terminate"]);
}, 30_000);

it("write(data) right after exec, then end() not awaited in between: cat echoes the data", async () => {
  codex = await OfflineCodex.start();
  const command = codex.client.exec(["cat"], { cwd: codex.workspace, streamStdin: true });
  await Promise.all([command.write("line one\n"), command.write("line two\n"), command.end()]);
  expect((await command.exit).stdout).toBe("line one\nline two\n");
}, 30_000);
