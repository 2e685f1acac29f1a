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
  // The helpers are typed by the surface too: exec options, fs changes, models, the account.
  const command = client.exec(["ls"], { cwd: "/tmp", sandboxPolicy: { type: "workspaceWrite" } });
  const code: number = (await command.exit).exitCode;
  void code;
  // @ts-expect-error not a sandbox policy.
  client.exec(["ls"], { sandboxPolicy: { type: "everything" } });
  client.fs.watch("/tmp").subscribe(({ changedPaths }) => void (changedPaths satisfies string[]));
  for await (const model of client.models({ limit: 5 })) void (model.displayName satisfies string);
  const { account } = await client.account.read();
  if (account?.type === "chatgpt") void (account.email satisfies string | null);
  // @ts-expect-error not a method of any codex version.
  await client.request("no/such/method", {});
}
