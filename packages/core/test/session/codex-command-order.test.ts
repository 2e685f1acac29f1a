// A running command's requests (write, end, resize, terminate) reach codex after its command/exec and in
// the order they were called, although command/exec and the base64 encoder load on demand (a
// stranger's review found terminate() overtaking command/exec, and write(x); end() closing stdin first).
import { expect, it } from "vitest";
import { connect } from "../support/connect-to-fake.js";

const methods = (server: { received: unknown[] }) => server.received.map((m) => (m as { method?: string }).method).filter((m) => m?.startsWith("command/"));

it("terminate() called right after exec() goes out after command/exec", async () => {
  const { server, client } = await connect();
  server.respond("command/exec", () => new Promise((resolve) => setTimeout(() => resolve({ result: { exitCode: 137, stdout: "", stderr: "" } }), 50)));
  server.respond("command/exec/terminate", () => ({ result: {} }));
  const command = client.exec(["sleep", "100"]);
  await command.terminate();
  await command.exit;
  expect(methods(server)).toEqual(["command/exec", "command/exec/terminate"]);
  await client.close();
});

it("resize() called right after exec() goes out after command/exec", async () => {
  const { server, client } = await connect();
  server.respond("command/exec", () => new Promise((resolve) => setTimeout(() => resolve({ result: { exitCode: 0, stdout: "", stderr: "" } }), 50)));
  server.respond("command/exec/resize", () => ({ result: {} }));
  const command = client.exec(["sh"], { tty: true } as never);
  await command.resize(80, 24);
  await command.exit;
  expect(methods(server)).toEqual(["command/exec", "command/exec/resize"]);
  await client.close();
});

it("write() called right after exec() goes out after command/exec", async () => {
  const { server, client } = await connect();
  server.respond("command/exec", () => new Promise((resolve) => setTimeout(() => resolve({ result: { exitCode: 0, stdout: "", stderr: "" } }), 50)));
  server.respond("command/exec/write", () => ({ result: {} }));
  const command = client.exec(["cat"], { streamStdin: true } as never);
  await command.write("hello");
  await command.end();
  await command.exit;
  expect(methods(server)).toEqual(["command/exec", "command/exec/write", "command/exec/write"]);
  await client.close();
});

it("output notifications sent right after the command/exec request arrives are all delivered", async () => {
  const { server, client } = await connect();
  server.respond("command/exec", (params) => {
    const { processId } = params as { processId: string };
    server.notify("command/exec/outputDelta", { processId, stream: "stdout", deltaBase64: btoa("a"), capReached: false });
    return new Promise((resolve) => setTimeout(() => resolve({ result: { exitCode: 0, stdout: "", stderr: "" } }), 10));
  });
  const command = client.exec(["echo"]);
  expect((await command.exit).stdout).toBe("a");
  await client.close();
});
it("write(data) then end() (not awaited in between) reach codex in that order, after command/exec", async () => {
  const { server, client } = await connect();
  server.respond("command/exec", () => new Promise((resolve) => setTimeout(() => resolve({ result: { exitCode: 0, stdout: "", stderr: "" } }), 50)));
  server.respond("command/exec/write", () => ({ result: {} }));
  // Warm up: command-run and base64 loaded.
  const warm = client.exec(["true"]);
  await warm.write("w");
  await warm.exit;
  server.received.length = 0;
  const command = client.exec(["cat"], { streamStdin: true } as never);
  await new Promise((r) => setTimeout(r, 5)); // command/exec is out
  const writes = [command.write("hello"), command.end()];
  await Promise.all(writes);
  await command.exit;
  const order = server.received
    .filter((m) => (m as { method?: string }).method?.startsWith("command/"))
    .map((m) => `${(m as { method: string }).method}${(m as { params: { closeStdin?: boolean } }).params.closeStdin ? "(close)" : ""}`);
  expect(order).toEqual(["command/exec", "command/exec/write", "command/exec/write(close)"]);
  await client.close();
});
