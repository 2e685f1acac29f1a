import { firstValueFrom } from "rxjs";
import { describe, expect, it } from "vitest";
import { CodexClient, InvalidOptionError, RequestAbortedError, type DynamicTool } from "@codex-rpc/core";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { connect } from "../support/connect-to-fake.js";

describe("CodexClient: handshake and requests (fake server)", () => {
  it("sends initialize with client info and capabilities, then the initialized notification", async () => {
    const { server, client } = await connect({}, { clientInfo: { name: "test", version: "1.2.3" }, experimentalApi: true });
    expect(server.received[0]).toEqual({
      id: 1,
      method: "initialize",
      params: { clientInfo: { name: "test", version: "1.2.3" }, capabilities: { experimentalApi: true } },
    });
    expect(server.received[1]).toEqual({ method: "initialized" });
    expect(client.initializeResponse.userAgent).toBe("fake-app-server/0.169.0 (fake)");
    expect(client.serverVersion).toBe("0.169.0");
    expect(client.state).toBe("open");
    await client.close();
    expect(client.state).toBe("closed");
  });

  it("asks the server not to send opted-out notifications", async () => {
    const { server, client } = await connect({}, { optOutNotificationMethods: ["item/reasoning/textDelta"] });
    expect(server.received[0]).toMatchObject({ params: { capabilities: { optOutNotificationMethods: ["item/reasoning/textDelta"] } } });
    await client.close();
  });

  it("validates with the generated validators when asked: a bad result rejects, a bad notification is reported and still delivered", async () => {
    const { server, client } = await connect({}, { validate: true });
    server.respond("thread/list", () => ({ result: { data: "not a list" } }));
    const error = await client.request("thread/list", {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "VALIDATION_FAILED", method: "thread/list", part: "result" });
    const reported: string[] = [];
    client.diagnostics$.subscribe((d) => reported.push(`${d.kind}: ${d.message}`));
    const delivered = firstValueFrom(client.notifications("thread/name/updated"));
    server.notify("thread/name/updated", { threadId: 42 });
    expect(await delivered).toEqual({ threadId: 42 });
    expect(reported).toEqual([expect.stringMatching(/^validation-failed: thread\/name\/updated params does not match/)]);
    await client.close();
  });
});

const echo: DynamicTool = { name: "echo", description: "echoes", inputSchema: { type: "object" }, handler: () => "ok" };

describe("cancellation and cleanup (fake server)", () => {
  it("aborting connect() during the handshake closes the transport and rejects with RequestAbortedError", async () => {
    const server = new FakeAppServer({ stalled: true });
    const controller = new AbortController();
    const connecting = CodexClient.connect(server.transport, { signal: controller.signal }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    const error = await connecting;
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(error).toMatchObject({ code: "REQUEST_ABORTED", method: "initialize" });
    expect(await server.transport.closed).toMatchObject({ reason: "closed" });
  });

  it("an already aborted signal opens no transport at all when given a factory", async () => {
    let opened = 0;
    const error = await CodexClient.connect(
      async () => {
        opened++;
        return new FakeAppServer().transport;
      },
      { signal: AbortSignal.abort() },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "REQUEST_ABORTED" });
    expect(opened).toBe(0);
  });

  it("aborting after connect() does nothing: the client stays open", async () => {
    const controller = new AbortController();
    const client = await CodexClient.connect(new FakeAppServer().transport, { signal: controller.signal });
    controller.abort();
    expect(client.state).toBe("open");
    expect((await client.startThread()).id).toBe("thread-1");
    await client.close();
  });

  it("`await using` closes the client when the block ends", async () => {
    const server = new FakeAppServer();
    let seen: CodexClient | undefined;
    {
      await using client = await CodexClient.connect(server.transport);
      seen = client;
      expect(client.state).toBe("open");
    }
    expect(seen.state).toBe("closed");
    expect(await server.transport.closed).toMatchObject({ reason: "closed" });
  });

  it("handle() returns a function that is also disposable: `using` removes the handler", async () => {
    const client = await CodexClient.connect(new FakeAppServer().transport);
    {
      using registration = client.handle("item/tool/requestUserInput", () => ({ answers: {} }));
      expect(typeof registration).toBe("function");
      expect(() => client.handle("item/tool/requestUserInput", () => ({ answers: {} }))).toThrow();
    }
    const again = client.handle("item/tool/requestUserInput", () => ({ answers: {} }));
    again(); // calling it still disposes, as before
    client.handle("item/tool/requestUserInput", () => ({ answers: {} }));
    await client.close();
  });

  it("turns experimentalApi on when tools are given, and refuses tools with experimentalApi: false", async () => {
    const server = new FakeAppServer();
    const client = await CodexClient.connect(server.transport, { tools: [echo] });
    expect(server.received[0]).toMatchObject({ method: "initialize", params: { capabilities: { experimentalApi: true } } });
    await client.close();
    const plain = new FakeAppServer();
    await (await CodexClient.connect(plain.transport)).close();
    expect(plain.received[0]).toMatchObject({ params: { capabilities: { experimentalApi: false } } });
    const refused = await CodexClient.connect(new FakeAppServer().transport, { tools: [echo], experimentalApi: false }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InvalidOptionError);
    expect(refused).toMatchObject({ code: "INVALID_OPTION", option: "experimentalApi" });
  });
});
