// The web console: connect through the relay, start or resume a thread, run turns and watch their
// items stream, answer approvals, steer and interrupt, and see the connection's state.
import type { CodexClient, CodexThread, CodexTurn } from "@codex-rpc/core";
import { askInPage } from "./approval-prompt.js";
import { byId } from "./dom.js";
import { ItemView } from "./item-view.js";
import { ConsoleConnectError, connectToRelay } from "./relay-connection.js";
import { readRelayTarget, redeemLoginCode } from "./relay-target.js";

const stateBadge = byId("state");
const errorBox = byId("error");
const threadLabel = byId("thread-id");
const reconnectCount = byId("reconnects");
const prompt = byId<HTMLTextAreaElement>("prompt");
const resumeInput = byId<HTMLInputElement>("resume-id");
const log = byId("log");
const view = new ItemView(byId("items"));
const approvals = byId("approvals");

let client: CodexClient | undefined;
let thread: CodexThread | undefined;
let turn: CodexTurn | undefined;
let reconnects = 0;

function setState(state: string): void {
  stateBadge.textContent = state;
  stateBadge.dataset.state = state;
  document.body.dataset.state = state;
  updateButtons();
}

function logLine(text: string): void {
  const line = document.createElement("div");
  line.textContent = `${new Date().toLocaleTimeString()} ${text}`;
  log.prepend(line);
}

function showError(text: string | undefined): void {
  errorBox.textContent = text ?? "";
  errorBox.hidden = text === undefined;
}

function updateButtons(): void {
  const open = client?.state === "open";
  const running = turn !== undefined;
  byId<HTMLButtonElement>("new-thread").disabled = !open;
  byId<HTMLButtonElement>("resume").disabled = !open;
  byId<HTMLButtonElement>("send").disabled = !open || thread === undefined || running;
  byId<HTMLButtonElement>("steer").disabled = !open || !running;
  byId<HTMLButtonElement>("interrupt").disabled = !open || !running;
}

function useThread(next: CodexThread, how: string): void {
  thread = next;
  threadLabel.textContent = next.id;
  logLine(`${how} thread ${next.id}`);
  updateButtons();
}

async function guarded(what: string, action: () => Promise<void>): Promise<void> {
  showError(undefined);
  try {
    await action();
  } catch (error) {
    showError(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function runTurn(text: string): void {
  if (!thread) return;
  const current = thread.run(text);
  turn = current;
  view.turnStarted(text);
  current.items$.subscribe((update) => view.update(update));
  current.events$.subscribe((event) => view.event(event));
  updateButtons();
  current.completed
    .then(
      (done) => view.note(`turn ${done.status}${done.error ? `: ${done.error.message}` : ""}`, `turn-end turn-${done.status}`),
      (error: unknown) => view.note(`turn lost: ${error instanceof Error ? error.message : String(error)}`, "turn-end turn-lost"),
    )
    .finally(() => {
      if (turn === current) turn = undefined;
      updateButtons();
    });
}

byId("new-thread").addEventListener("click", () => guarded("Starting a thread", async () => useThread(await (client as CodexClient).startThread(), "started")));
byId("resume").addEventListener("click", () =>
  guarded("Resuming", async () => useThread(await (client as CodexClient).resumeThread(resumeInput.value.trim()), "resumed")),
);
byId("composer").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = prompt.value.trim();
  if (text === "" || !thread || turn) return;
  prompt.value = "";
  runTurn(text);
});
byId("steer").addEventListener("click", () =>
  guarded("Steering", async () => {
    const text = prompt.value.trim();
    if (text === "" || !turn) return;
    prompt.value = "";
    await turn.steer(text);
    view.note(`steered: ${text}`, "steered");
  }),
);
byId("interrupt").addEventListener("click", () => guarded("Interrupting", async () => turn?.interrupt()));

async function start(): Promise<void> {
  setState("connecting");
  const target = await redeemLoginCode(readRelayTarget(location, history, sessionStorage), sessionStorage);
  byId("relay").textContent = target.relayBase;
  try {
    const connected = await connectToRelay(target, (request, { signal }) => askInPage(approvals, request, signal));
    client = connected.client;
  } catch (error) {
    setState("refused");
    showError(error instanceof ConsoleConnectError ? error.message : `Could not connect: ${String(error)}`);
    return;
  }
  logLine(`connected to ${client.initializeResponse?.userAgent ?? "codex"}`);
  client.state$.subscribe((state) => {
    setState(state);
    if (state === "reconnecting") logLine("connection lost; reconnecting…");
  });
  client.reconnections$.subscribe((reconnection) => {
    reconnects += 1;
    reconnectCount.textContent = String(reconnects);
    const resumed = reconnection.threads.map((t) => `${t.threadId.slice(0, 8)}… ${t.resumed ? "resumed" : `not resumed (${t.error.message})`}`);
    logLine(
      `reconnected after ${reconnection.attempts} attempt(s), ${reconnection.reconnectedAt - reconnection.disconnectedAt} ms offline; ${resumed.join(", ") || "no threads"}`,
    );
  });
}

void start();
