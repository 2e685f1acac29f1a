import { firstValueFrom } from "rxjs";
import { describe, expect, it } from "vitest";
import { connect } from "../support/connect-to-fake.js";
import { NotificationRouter, type NotificationRouterHost } from "../../src/client/notification-router.js";
import type { JsonRpcNotification } from "../../src/framing/json-rpc-message.js";

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

describe("NotificationRouter: thread listeners", () => {
  const host = {
    connection: { report: () => {}, withdrawServerRequest: () => {} },
    validators: undefined,
    threadEnded: () => {},
  } as unknown as NotificationRouterHost;
  const started = (threadId: string) => ({ method: "turn/started", params: { threadId, turn: { id: "u" } } }) as unknown as JsonRpcNotification;

  it("routes by thread, and a listener stopped during a delivery does not get that message", () => {
    const router = new NotificationRouter(host, ["turn/started"]);
    const got: string[] = [];
    let stopB = (): void => {};
    const stopA = router.listenToThread("t", {
      notification: () => {
        got.push("A");
        stopB();
      },
      closed: () => {},
    });
    stopB = router.listenToThread("t", { notification: () => got.push("B"), closed: () => {} });
    router.listenToThread("other", { notification: () => got.push("other"), closed: () => {} });
    router.route(started("t"));
    router.route(started("t"));
    stopA();
    stopA();
    router.route(started("t"));
    router.route(started("other"));
    expect(got).toEqual(["A", "A", "other"]);
    expect(router.threadListenerCount).toBe(1);
  });

  it("a listener that joins during a delivery gets the next message, not this one", () => {
    const router = new NotificationRouter(host, ["turn/started"]);
    const got: string[] = [];
    router.listenToThread("t", {
      notification: () => {
        got.push("A");
        if (got.length === 1) router.listenToThread("t", { notification: () => got.push("late"), closed: () => {} });
      },
      closed: () => {},
    });
    router.route(started("t"));
    router.route(started("t"));
    expect(got).toEqual(["A", "A", "late"]);
  });
});
