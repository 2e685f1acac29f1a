import { firstValueFrom, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { CodexClient, InvalidOptionError } from "@codex-rpc/core";
import { FakeAppServer, type FakeAppServerOptions } from "@codex-rpc/core/testing";

// Both joins must behave alike for everything but bytes: each case runs over each.
const JOINS: readonly FakeAppServerOptions["framing"][] = ["messages", "ndjson"];

describe.each(JOINS)("FakeAppServer joined by %s", (framing) => {
  it("answers the handshake and plays a scripted turn", async () => {
    const server = new FakeAppServer({ framing, turns: [{ deltas: ["a", "b"] }] });
    const client = await CodexClient.connect(server.transport);
    const thread = await client.startThread();
    const turn = thread.run("hi");
    const text = firstValueFrom(turn.text$.pipe(toArray()));
    expect((await turn.completed).finalText).toBe("ab");
    expect(await text).toEqual(["a", "b"]);
    expect(server.received.map((message) => ("method" in message ? message.method : "reply"))).toEqual([
      "initialize",
      "initialized",
      "thread/start",
      "turn/start",
    ]);
    await client.close();
    expect(await server.transport.closed).toMatchObject({ reason: "closed" });
  });

  it("a crash closes the client's transport with the exit it was given, and the client with it", async () => {
    const server = new FakeAppServer({ framing });
    const client = await CodexClient.connect(server.transport);
    server.crash({ exitCode: 3 });
    expect(await server.transport.closed).toEqual({ reason: "exit", exitCode: 3, signal: null, stderrTail: ["fake app-server crashed"] });
    expect(await client.closed).toMatchObject({ reason: "exit", exitCode: 3 });
  });

  it("a server request resolves with the client's reply", async () => {
    const server = new FakeAppServer({ framing });
    const client = await CodexClient.connect(server.transport);
    client.handle("item/tool/requestUserInput", () => ({ answers: {} }));
    expect(await server.request("item/tool/requestUserInput", { threadId: "t", turnId: "u", itemId: "i", questions: [] })).toEqual({ result: { answers: {} } });
    expect(server.pendingServerRequests).toBe(0);
    await client.close();
  });
});

describe("FakeAppServer's byte path", () => {
  it("sends raw bytes through the client's framing: a line that is not JSON is a diagnostic", async () => {
    const server = new FakeAppServer({ framing: "ndjson" });
    const diagnostics: string[] = [];
    server.transport.diagnostics$.subscribe((diagnostic) => diagnostics.push(diagnostic.kind));
    const client = await CodexClient.connect(server.transport);
    server.sendRaw("not json\n");
    await client.startThread(); // a round trip later, the line has been read
    expect(diagnostics).toEqual(["invalid-json"]);
    expect(server.undecodable).toEqual([]);
    await client.close();
  });

  it('needs framing: "ndjson" for sendRaw and maxLineBytes', () => {
    expect(() => new FakeAppServer().sendRaw("x\n")).toThrow(/framing: "ndjson"/);
    expect(() => new FakeAppServer({ maxLineBytes: 1024 })).toThrow(InvalidOptionError);
  });
});
