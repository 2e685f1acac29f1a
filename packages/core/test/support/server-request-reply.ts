// One server request sent to a fresh client by the fake server: its reply and the client's
// diagnostics (the version-mismatch one every fake session reports left out).
import type { CodexClientOptions, ConnectionDiagnostic } from "@codex-rpc/core";
import { connect } from "./connect-to-fake.js";

export async function serverRequestReply(method: string, params: unknown, options: CodexClientOptions = {}) {
  const { server, client } = await connect({}, options);
  const diagnostics: ConnectionDiagnostic[] = [];
  client.diagnostics$.subscribe((diagnostic) => diagnostics.push(diagnostic));
  const reply = await server.request(method, params);
  await client.close();
  return { reply, diagnostics: diagnostics.filter((diagnostic) => diagnostic.kind !== "version-mismatch") };
}
