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
});
