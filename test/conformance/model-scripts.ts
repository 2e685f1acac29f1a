// What the mock model answers in each case (each case has its own provider, so scripts never mix).
import { reply, type ScriptedReply } from "@codex-rpc/testing";
import { APPROVAL_TURN } from "./case-list.mjs";

export function modelScriptFor(caseId: string): ScriptedReply[] {
  switch (caseId) {
    case "approvalTurn":
      return [
        // Escalated: with the thread's approvalPolicy "untrusted", codex asks the client first.
        reply.execCommand({ cmd: APPROVAL_TURN.command, sandbox_permissions: "require_escalated", justification: "Conformance: run it?" }),
        reply.text(APPROVAL_TURN.finalText, { chunks: APPROVAL_TURN.textChunks }),
      ];
    case "interrupt":
    case "killMidTurn":
      return [reply.hang()]; // the turn stays mid-stream until interrupted or killed
    default:
      return []; // handshake and thread start never reach the model
  }
}
