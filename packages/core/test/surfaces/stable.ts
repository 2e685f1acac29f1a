// The default surface: @codex-rpc/protocol's stable types (codex 0.169.0).
import { CodexClient, type Transport } from "@codex-rpc/core";

export async function stable(transport: Transport): Promise<void> {
  const client = await CodexClient.connect(transport);
  // 0.169.0 has modelProvider/list.
  const providers = await client.request("modelProvider/list", {});
  void providers;
  // @ts-expect-error dynamicTools is experimental: not a stable thread/start param.
  await client.startThread({ dynamicTools: [] });
  const thread = await client.startThread({ cwd: "/tmp" });
  const turn = thread.run("hi");
  const done = await turn.completed;
  const status: "completed" | "interrupted" | "failed" | "inProgress" = done.status;
  void status;
  client.handle("item/commandExecution/requestApproval", (params) => {
    const id: string = params.itemId;
    void id;
    return { decision: "decline" };
  });
  // @ts-expect-error not a method of any codex version.
  await client.request("no/such/method", {});
}
