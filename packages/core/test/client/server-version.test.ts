// Version awareness: the client reads the server's codex version from `initialize`, compares it
// with the version its protocol was generated from, and names both when a method is missing.
import { describe, expect, it } from "vitest";
import { CodexClient, MethodNotSupportedError, ProtocolVersionMismatchError, type ConnectionDiagnostic } from "@codex-rpc/core";
import { PROTOCOL_VERSION } from "@codex-rpc/protocol";
import { FakeAppServer } from "@codex-rpc/core/testing";

describe("server version", () => {
  it("exposes the server's codex version and the protocol's, with no diagnostic when they match", async () => {
    const server = new FakeAppServer();
    const client = await CodexClient.connect(server.transport);
    const diagnostics: ConnectionDiagnostic[] = [];
    client.diagnostics$.subscribe((d) => diagnostics.push(d));
    expect(client.serverVersion).toBe(PROTOCOL_VERSION);
    expect(client.protocolVersion).toBe(PROTOCOL_VERSION);
    expect(diagnostics).toEqual([]);
    await client.close();
  });

  it("reports a mismatch on diagnostics and keeps working", async () => {
    const server = new FakeAppServer({ codexVersion: "0.166.0" });
    const client = await CodexClient.connect(server.transport);
    const diagnostics: ConnectionDiagnostic[] = [];
    client.diagnostics$.subscribe((d) => diagnostics.push(d));
    expect(client.serverVersion).toBe("0.166.0");
    expect(diagnostics).toEqual([
      expect.objectContaining({
        kind: "version-mismatch",
        message: expect.stringContaining(`codex 0.166.0 but this client's protocol is for codex ${PROTOCOL_VERSION}`),
      }),
    ]);
    expect((await client.startThread()).id).toBe("thread-1");
    await client.close();
  });

  it("with strictVersion, connect() refuses with a typed error that says what to install or run", async () => {
    const server = new FakeAppServer({ codexVersion: "0.166.0" });
    const error = await CodexClient.connect(server.transport, { strictVersion: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolVersionMismatchError);
    expect(error).toMatchObject({ code: "PROTOCOL_VERSION_MISMATCH", serverVersion: "0.166.0", protocolVersion: PROTOCOL_VERSION });
    expect((error as Error).message).toContain("codex-rpc-gen generate --codex-version 0.166.0");
  });

  it("a method the server's version lacks fails with METHOD_NOT_SUPPORTED naming both versions, not a bare -32600", async () => {
    const server = new FakeAppServer({ codexVersion: "0.160.0" });
    // What codex 0.169.0 answers for a method it does not know (seen on the real server).
    server.respond("account/gatewayOAuth/read", () => ({
      error: { code: -32600, message: "Invalid request: unknown variant `account/gatewayOAuth/read`, expected one of `initialize`, `thread/start`" },
    }));
    const client = await CodexClient.connect(server.transport);
    const error = await client.requestUntyped("account/gatewayOAuth/read").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MethodNotSupportedError);
    expect(error).toMatchObject({ code: "METHOD_NOT_SUPPORTED", method: "account/gatewayOAuth/read", rpcCode: -32600, serverVersion: "0.160.0" });
    expect((error as Error).message).toMatch(/not supported by the server \(codex 0\.160\.0\); this client's protocol is for codex 0\.169\.0/);
    // Other invalid requests stay plain server errors.
    server.respond("thread/list", () => ({ error: { code: -32600, message: "Invalid request: missing field `cursor`" } }));
    expect(await client.request("thread/list", {}).catch((e: unknown) => e)).toMatchObject({ code: "SERVER_ERROR" });
    await client.close();
  });

  it("reads the version whatever clientInfo.name holds: codex puts the name in as sent, spaces and slashes too", async () => {
    // The userAgent codex 0.160.0 answered for each name (seen on the real server).
    for (const name of ["My App", "my-app/2.0", ""]) {
      const server = new FakeAppServer();
      server.respond("initialize", () => ({
        result: {
          userAgent: `${name}/${PROTOCOL_VERSION} (Debian 12.0.0; x86_64) xterm (${name}; 1.0.0)`,
          codexHome: "/tmp/fake-codex-home",
          platformFamily: "unix",
          platformOs: "linux",
        },
      }));
      const client = await CodexClient.connect(server.transport, { clientInfo: { name, version: "1.0.0" }, strictVersion: true });
      expect(client.serverVersion).toBe(PROTOCOL_VERSION);
      await client.close();
    }
  });

  it("reads the version from an app-server another client initialized first: codex keeps that client's name in every userAgent", async () => {
    // codex 0.169.0 over --listen: a second client named "other" got "My App/0.169.0 (…) (other; 1)".
    for (const [first, name] of [
      ["My App", "other"],
      ["my-app/2.0", "my-app"],
    ]) {
      const server = new FakeAppServer();
      server.respond("initialize", () => ({
        result: {
          userAgent: `${first}/${PROTOCOL_VERSION} (Debian 12.0.0; x86_64) xterm (${name}; 1.0.0)`,
          codexHome: "/tmp/fake-codex-home",
          platformFamily: "unix",
          platformOs: "linux",
        },
      }));
      const client = await CodexClient.connect(server.transport, { clientInfo: { name: name!, version: "1.0.0" }, strictVersion: true });
      expect(client.serverVersion).toBe(PROTOCOL_VERSION);
      await client.close();
    }
  });
});
