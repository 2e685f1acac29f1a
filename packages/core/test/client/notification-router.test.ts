import { firstValueFrom } from "rxjs";
import { describe, expect, it } from "vitest";
import { connect } from "../support/connect-to-fake.js";

describe("notifications and framing (fake server)", () => {
  it("reports a non-JSON line and skips it; later messages still arrive; unknown methods pass through", async () => {
    // A line that is not JSON needs the byte path: the loopback transport carries messages only.
    const { server, client } = await connect({ framing: "ndjson" });
    const diagnostics: string[] = [];
    client.diagnostics$.subscribe((d) => diagnostics.push(d.kind));
    const unknown = firstValueFrom(client.unknownNotifications());
    const known = firstValueFrom(client.notifications("thread/name/updated"));
    server.sendRaw("this is not json\n");
    server.notify("brandNew/notification", { x: 1 });
    server.notify("thread/name/updated", { threadId: "t", threadName: "renamed" });
    expect(await unknown).toEqual({ method: "brandNew/notification", params: { x: 1 } });
    expect(await known).toEqual({ threadId: "t", threadName: "renamed" });
    expect(diagnostics).toContain("invalid-json");
    await client.close();
  });
});
