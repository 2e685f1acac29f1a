import { describe, expect, it } from "vitest";
import { connect } from "../support/connect-to-fake.js";

describe("client.exec (scripted server)", () => {
  it("asks for streamed output with a processId of its own, and passes the options through", async () => {
    const { server, client } = await connect();
    server.respond("command/exec", () => ({ result: { exitCode: 0, stdout: "", stderr: "" } }));
    const command = client.exec(["ls", "-l"], { cwd: "/w", timeoutMs: 5 });
    await command.exit;
    const sent = server.received.find((m) => "method" in m && m.method === "command/exec") as { params: Record<string, unknown> };
    expect(sent.params).toEqual({ command: ["ls", "-l"], cwd: "/w", timeoutMs: 5, processId: command.processId, streamStdoutStderr: true });
    expect(command.processId).toMatch(/^codex-rpc-exec-/);
    await client.close();
  });

  it("an empty command is an InvalidOptionError before anything is sent", async () => {
    const { client } = await connect();
    expect(() => client.exec([])).toThrow(expect.objectContaining({ code: "INVALID_OPTION" }));
    await client.close();
  });

  it("a signal aborted before the start sends nothing and rejects exit with RequestAbortedError", async () => {
    const { server, client } = await connect();
    const command = client.exec(["sleep", "1"], { signal: AbortSignal.abort() });
    await expect(command.exit).rejects.toMatchObject({ code: "REQUEST_ABORTED" });
    expect(server.received.some((m) => "method" in m && m.method === "command/exec")).toBe(false);
    await client.close();
  });

  it.each([null, "junk", { exitCode: "0" }])("a reply of the wrong shape (%j) rejects result and exit with ProtocolError", async (reply) => {
    const { server, client } = await connect();
    server.respond("command/exec", () => ({ result: reply }));
    const command = client.exec(["true"]);
    await expect(command.exit).rejects.toMatchObject({ code: "PROTOCOL_ERROR", method: "command/exec" });
    await expect(command.result).rejects.toMatchObject({ code: "PROTOCOL_ERROR" });
    await client.close();
  });

  it("output that cannot be decoded is reported, one malformed-message each; the rest is delivered", async () => {
    const { server, client } = await connect();
    const diagnostics: { kind: string; message: string }[] = [];
    client.diagnostics$.subscribe((diagnostic) => diagnostics.push(diagnostic));
    let command!: ReturnType<typeof client.exec>;
    server.respond("command/exec", () => {
      const processId = command.processId;
      for (const deltaBase64 of [42, undefined, "@@not base64@@", Buffer.from("fine").toString("base64")])
        server.notify("command/exec/outputDelta", { processId, stream: "stdout", deltaBase64, capReached: false });
      return { result: { exitCode: 0, stdout: "", stderr: "" } };
    });
    command = client.exec(["echo"]);
    expect((await command.exit).stdout).toBe("fine");
    const malformed = diagnostics.filter((d) => d.kind === "malformed-message" && d.message.startsWith("command/exec/outputDelta"));
    expect(malformed.map((d) => d.message)).toEqual([
      "command/exec/outputDelta: no `deltaBase64` string; the chunk is dropped",
      "command/exec/outputDelta: no `deltaBase64` string; the chunk is dropped",
      "command/exec/outputDelta: `deltaBase64` is not base64; the chunk is dropped",
    ]);
    await client.close();
  });

  it("output that starts with a byte order mark keeps it: it is the command's own output", async () => {
    const { server, client } = await connect();
    let command!: ReturnType<typeof client.exec>;
    server.respond("command/exec", () => {
      const deltaBase64 = Buffer.from("\uFEFFid,name\n").toString("base64");
      server.notify("command/exec/outputDelta", { processId: command.processId, stream: "stdout", deltaBase64, capReached: false });
      return { result: { exitCode: 0, stdout: "", stderr: "" } };
    });
    command = client.exec(["cat", "table.csv"]);
    expect((await command.exit).stdout).toBe("\uFEFFid,name\n");
    await client.close();
  });
});
