import { firstValueFrom } from "rxjs";
import { describe, expect, it, vi } from "vitest";
import { CodexClient, type Transport } from "@codex-rpc/core";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { connect } from "../support/connect-to-fake.js";

const sentOf = (received: readonly unknown[], method: string) =>
  received.filter((m): m is { params: unknown } => typeof m === "object" && m !== null && (m as { method?: string }).method === method).map((m) => m.params);
/** Waits until `fs/watch` went out: the watching loads on demand (fs-watch) when the first subscriber comes. */
const watchSent = (received: readonly unknown[]) => vi.waitFor(() => expect(sentOf(received, "fs/watch")).toHaveLength(1));

describe("client.fs (scripted server)", () => {
  it("a text file read and written back is unchanged, a byte order mark included (as Node's readFile keeps it)", async () => {
    const { server, client } = await connect();
    let stored = Buffer.from("\uFEFFid,name\n").toString("base64");
    server.respond("fs/readFile", () => ({ result: { dataBase64: stored } }));
    server.respond("fs/writeFile", (params) => ((stored = (params as { dataBase64: string }).dataBase64), { result: {} }));
    const text = await client.fs.readTextFile("/w/table.csv");
    expect(text).toBe("\uFEFFid,name\n");
    await client.fs.writeFile("/w/table.csv", text);
    expect(Buffer.from(stored, "base64").toString("hex")).toBe(Buffer.from("\uFEFFid,name\n").toString("hex"));
    await client.close();
  });

  it("encodes and decodes contents as base64 and sends absolute paths as given", async () => {
    const { server, client } = await connect();
    let stored = "";
    server.respond("fs/writeFile", (params) => ((stored = (params as { dataBase64: string }).dataBase64), { result: {} }));
    server.respond("fs/readFile", () => ({ result: { dataBase64: stored } }));
    server.respond("fs/readDirectory", () => ({ result: { entries: [{ fileName: "a", isDirectory: false, isFile: true }] } }));
    await client.fs.writeFile("/w/a.txt", "é✓");
    expect(stored).toBe("w6ninJM=");
    expect(await client.fs.readTextFile("/w/a.txt")).toBe("é✓");
    expect(await client.fs.readDirectory("/w")).toEqual([{ fileName: "a", isDirectory: false, isFile: true }]);
    server.respond("fs/copy", () => ({ result: {} }));
    server.respond("fs/remove", () => ({ result: {} }));
    await client.fs.copy("/w/a", "/w/b", { recursive: true });
    await client.fs.remove("/w/b", { force: false });
    expect(sentOf(server.received, "fs/copy")).toEqual([{ recursive: true, sourcePath: "/w/a", destinationPath: "/w/b" }]);
    expect(sentOf(server.received, "fs/remove")).toEqual([{ force: false, path: "/w/b" }]);
    await client.close();
  });

  it("a malformed reply is a ProtocolError, never empty contents (a read-modify-write would truncate the file)", async () => {
    const { server, client } = await connect();
    server.respond("fs/readFile", () => ({ result: {} }));
    server.respond("fs/readDirectory", () => ({ result: { entries: "no" } }));
    await expect(client.fs.readTextFile("/w/a.txt")).rejects.toMatchObject({ code: "PROTOCOL_ERROR", message: expect.stringContaining("dataBase64") });
    await expect(client.fs.readDirectory("/w")).rejects.toMatchObject({ code: "PROTOCOL_ERROR", message: expect.stringContaining("entries") });
    server.respond("fs/readFile", () => ({ result: { dataBase64: "%%%" } }));
    await expect(client.fs.readFile("/w/a.txt")).rejects.toMatchObject({ code: "PROTOCOL_ERROR", message: expect.stringContaining("not base64") });
    await client.close();
  });

  it("watch(): each subscriber gets its own watchId, sees only its changes, and unwatches on unsubscribe", async () => {
    const { server, client } = await connect();
    server.respond("fs/watch", (params) => ({ result: { path: (params as { path: string }).path } }));
    server.respond("fs/unwatch", () => ({ result: {} }));
    const seen: unknown[] = [];
    const subscription = client.fs.watch("/w").subscribe((change) => seen.push(change));
    await watchSent(server.received);
    const { watchId } = (sentOf(server.received, "fs/watch") as { watchId: string }[])[0]!;
    server.notify("fs/changed", { watchId: "someone-else", changedPaths: ["/x"] });
    server.notify("fs/changed", { watchId, changedPaths: ["/w/new.txt"] });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(seen).toEqual([{ watchId, changedPaths: ["/w/new.txt"] }]);
    subscription.unsubscribe();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(sentOf(server.received, "fs/unwatch")).toEqual([{ watchId }]);
    await client.close();
  });

  it("watch(): unsubscribing before fs/watch is answered unwatches once it is; a refused watch errors the Observable", async () => {
    const { server, client } = await connect();
    let answer!: () => void;
    server.respond("fs/watch", () => new Promise((resolve) => (answer = () => resolve({ result: { path: "/w" } }))));
    server.respond("fs/unwatch", () => ({ result: {} }));
    const subscription = client.fs.watch("/w").subscribe();
    await watchSent(server.received);
    subscription.unsubscribe();
    expect(sentOf(server.received, "fs/unwatch")).toEqual([]);
    answer();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(sentOf(server.received, "fs/unwatch")).toHaveLength(1);

    server.respond("fs/watch", () => ({ error: { code: -32600, message: "watchId already exists" } }));
    const failure = await new Promise((resolve) => client.fs.watch("/w").subscribe({ error: resolve }));
    expect(failure).toMatchObject({ code: "SERVER_ERROR", rpcMessage: "watchId already exists" });
    await client.close();
  });
});

describe("client.fs.watch across a reconnect (scripted servers)", () => {
  it("asks the new server for the same watch, and reports its changes", async () => {
    const servers: FakeAppServer[] = [];
    const factory = async (): Promise<Transport> => {
      const server = new FakeAppServer();
      server.respond("fs/watch", (params) => ({ result: { path: (params as { path: string }).path } }));
      servers.push(server);
      return server.transport;
    };
    const client = await CodexClient.connect(factory, { reconnect: { initialDelayMs: 1, maxDelayMs: 5 } });
    const seen: unknown[] = [];
    client.fs.watch("/w").subscribe((change) => seen.push(change.changedPaths));
    await watchSent(servers[0]!.received);
    const first = sentOf(servers[0]!.received, "fs/watch") as { watchId: string }[];
    servers[0]!.crash();
    const reconnected = await firstValueFrom(client.reconnections$);
    expect(reconnected.attempts).toBeGreaterThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(sentOf(servers[1]!.received, "fs/watch")).toEqual(first);
    servers[1]!.notify("fs/changed", { watchId: first[0]!.watchId, changedPaths: ["/w/after"] });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(seen).toEqual([["/w/after"]]);
    await client.close();
  });
});
