// A module the user generated for their codex (0.166.0 here): the client is typed by it.
import { CodexClient, type Transport } from "@codex-rpc/core";
import { protocol } from "./protocol-0.166.0/stable/index.js";

export async function codex0166(transport: Transport): Promise<void> {
  const client = await CodexClient.connect(transport, { protocol });
  const version: "0.166.0" = protocol.version;
  void version;
  // @ts-expect-error modelProvider/list arrived in 0.169.0: this server's protocol has no such method.
  await client.request("modelProvider/list", {});
  const threads = await client.request("thread/list", {});
  void threads.data;
  client.notifications("item/agentMessage/delta").subscribe((params) => {
    const delta: string = params.delta;
    void delta;
  });
}
