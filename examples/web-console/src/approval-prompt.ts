// Approvals answered in the page: each request becomes a card with one button per decision the
// server allows, and the client's approval policy waits for the click. The decisions come from the
// request: `availableDecisions` where codex lists them (a command: ["accept", {…amendment}, "cancel"]
// in 0.169.0; object entries such as an execpolicy amendment are not among the four decisions core's
// policy speaks, so they get no button), plus "decline", which core always allows (codex takes it);
// an MCP elicitation offers "acceptForSession" only where its `_meta.persist` lists "session".
import type { ApprovalDecision, ApprovalRequest } from "@codex-rpc/core";
import { element } from "./dom.js";

const ALL: readonly ApprovalDecision[] = ["accept", "acceptForSession", "decline", "cancel"];

const LABELS: Readonly<Record<ApprovalDecision, string>> = {
  accept: "Accept",
  acceptForSession: "Accept for session",
  decline: "Decline",
  cancel: "Cancel turn",
};

/** The decisions a request allows, in the order the server listed them. */
export function offeredDecisions(request: ApprovalRequest): ApprovalDecision[] {
  const params = request.params as { availableDecisions?: unknown; _meta?: { persist?: unknown } } | null;
  const listed = Array.isArray(params?.availableDecisions)
    ? params.availableDecisions.filter((entry): entry is ApprovalDecision => typeof entry === "string" && (ALL as readonly string[]).includes(entry))
    : undefined;
  if (listed !== undefined && listed.length > 0) return listed.includes("decline") ? listed : [...listed, "decline"];
  switch (request.kind) {
    case "mcpElicitation": {
      const persist = params?._meta?.persist;
      return Array.isArray(persist) && persist.includes("session") ? ["accept", "acceptForSession", "decline", "cancel"] : ["accept", "decline", "cancel"];
    }
    case "permissions":
      return ["accept", "acceptForSession", "decline"];
    default:
      return [...ALL];
  }
}

/** What the request is about, in one line. */
function describe(request: ApprovalRequest): string {
  const params = request.params as Record<string, unknown> | null;
  switch (request.kind) {
    case "commandExecution":
      return `Run ${String(params?.command ?? "a command")}${params?.reason ? ` — ${String(params.reason)}` : ""}`;
    case "fileChange":
      return `Change files${params?.reason ? ` — ${String(params.reason)}` : ""}`;
    case "mcpElicitation":
      return request.toolCall ? `Call MCP tool ${request.toolCall.server}/${request.toolCall.tool}` : String(params?.message ?? "An MCP server asks");
    default:
      return `${request.kind}: ${JSON.stringify(params).slice(0, 300)}`;
  }
}

/** Shows the request in `container` and resolves with the clicked decision (or "decline" if the server withdraws it). */
export function askInPage(container: HTMLElement, request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
  return new Promise((resolve) => {
    const card = element("div", { class: "approval", "data-kind": request.kind }, [element("div", { class: "approval-what" }, [describe(request)])]);
    const buttons = element("div", { class: "approval-buttons" });
    const finish = (decision: ApprovalDecision) => {
      card.remove();
      resolve(decision);
    };
    for (const decision of offeredDecisions(request)) {
      const button = element("button", { type: "button", "data-decision": decision }, [LABELS[decision]]);
      button.addEventListener("click", () => finish(decision));
      buttons.append(button);
    }
    card.append(buttons);
    container.append(card);
    signal.addEventListener("abort", () => finish("decline"), { once: true });
  });
}
