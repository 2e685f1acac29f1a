import { firstValueFrom } from "rxjs";
import { describe, expect, it } from "vitest";
import { connect } from "../support/connect-to-fake.js";

describe("CodexClient: handshake and requests (scripted server)", () => {
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
    client.diagnostics.subscribe((d) => reported.push(`${d.kind}: ${d.message}`));
    const delivered = firstValueFrom(client.notifications("thread/name/updated"));
    server.notify("thread/name/updated", { threadId: 42 });
    expect(await delivered).toEqual({ threadId: 42 });
    expect(reported).toEqual([expect.stringMatching(/^validation-failed: thread\/name\/updated params does not match/)]);
    await client.close();
  });
});
