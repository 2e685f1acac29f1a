// A FakeAppServer and a client connected to it: how most of core's client tests begin.
import { CodexClient, type CodexClientOptions } from "@codex-rpc/core";
import { FakeAppServer, type FakeAppServerOptions } from "@codex-rpc/core/testing";

/** A fake server and a client connected to it (overload retries shortened for speed). */
export async function connect(serverOptions: FakeAppServerOptions = {}, clientOptions: CodexClientOptions = {}) {
  const server = new FakeAppServer(serverOptions);
  const client = await CodexClient.connect(server.transport, { overloadRetry: { initialDelayMs: 1, maxDelayMs: 5 }, ...clientOptions });
  return { server, client };
}
