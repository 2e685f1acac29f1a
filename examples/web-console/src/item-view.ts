// A turn's items as they stream: agent text, reasoning, commands with their output, file changes
// as diffs, the user's own messages (a steer shows up as one); anything else as its type.
import type { TurnItemUpdate } from "@codex-rpc/core";
import type { ServerNotification, ThreadItem } from "@codex-rpc/protocol";
import { element } from "./dom.js";

export class ItemView {
  private readonly nodes = new Map<string, HTMLElement>();

  constructor(private readonly container: HTMLElement) {}

  /** A heading for a new turn. */
  turnStarted(prompt: string): void {
    this.container.append(element("div", { class: "turn-heading" }, [`› ${prompt}`]));
    this.scroll();
  }

  /** A line about the turn (its end, an error). */
  note(text: string, kind = "note"): void {
    this.container.append(element("div", { class: kind }, [text]));
    this.scroll();
  }

  update({ phase, item }: TurnItemUpdate<ThreadItem>): void {
    const node = this.nodeFor(item);
    node.dataset.phase = phase;
    node.replaceChildren(...render(item));
    this.scroll();
  }

  /** Reasoning streams as `item/reasoning/*Delta` notifications, which `items$` does not fold. */
  event(notification: ServerNotification): void {
    if (notification.method !== "item/reasoning/summaryTextDelta" && notification.method !== "item/reasoning/textDelta") return;
    const node = this.nodes.get(notification.params.itemId);
    const body = node?.querySelector(".reasoning-text");
    if (body && node?.dataset.phase !== "completed") body.append(notification.params.delta);
  }

  private nodeFor(item: ThreadItem): HTMLElement {
    let node = this.nodes.get(item.id);
    if (node === undefined) {
      node = element("div", { class: "item", "data-type": item.type, "data-item-id": item.id });
      this.nodes.set(item.id, node);
      this.container.append(node);
    }
    return node;
  }

  private scroll(): void {
    this.container.scrollTop = this.container.scrollHeight;
  }
}

function render(item: ThreadItem): (Node | string)[] {
  switch (item.type) {
    case "agentMessage":
      return [element("span", { class: "who" }, ["codex"]), element("div", { class: "agent-text" }, [item.text])];
    case "userMessage":
      return [element("span", { class: "who" }, ["you"]), element("div", { class: "user-text" }, [userText(item.content)])];
    case "reasoning":
      return [element("span", { class: "who" }, ["reasoning"]), element("div", { class: "reasoning-text" }, [[...item.summary, ...item.content].join("\n")])];
    case "commandExecution":
      return [
        element("div", { class: "command" }, [`$ ${item.command}`]),
        element("pre", { class: "command-output" }, [item.aggregatedOutput ?? ""]),
        element("div", { class: "command-status", "data-status": item.status }, [
          item.exitCode === null ? item.status : `${item.status}, exit ${item.exitCode}`,
        ]),
      ];
    case "fileChange":
      return [
        element("div", { class: "file-change-status", "data-status": item.status }, [`file changes (${item.status})`]),
        ...item.changes.map((change) =>
          element("div", { class: "file-change" }, [
            element("div", { class: "path" }, [`${change.kind.type} ${change.path}`]),
            diff(change.kind.type, change.diff),
          ]),
        ),
      ];
    default:
      return [element("span", { class: "who" }, [item.type])];
  }
}

/**
 * A change as a diff. codex 0.169.0 sends an update as a unified diff (coloured by each line's first
 * character), but an added or deleted file as its whole content: shown as all `+` or all `-` lines.
 */
function diff(kind: string, text: string): HTMLElement {
  const pre = element("pre", { class: "diff" });
  const lines = text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
  for (const line of lines) {
    if (kind === "add" || kind === "delete") {
      pre.append(element("span", { class: kind === "add" ? "diff-add" : "diff-del" }, [`${kind === "add" ? "+" : "-"}${line}`]), "\n");
      continue;
    }
    const type = line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : line.startsWith("@@") ? "hunk" : "ctx";
    pre.append(element("span", { class: `diff-${type}` }, [line]), "\n");
  }
  return pre;
}

function userText(content: readonly { type: string; text?: string }[]): string {
  return content.map((part) => (part.type === "text" ? (part.text ?? "") : `[${part.type}]`)).join(" ");
}
