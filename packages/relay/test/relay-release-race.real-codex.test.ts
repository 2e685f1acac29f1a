// Review 6 F1 against the real codex 0.169.0: codex answers the relay's `turn/interrupt` and page
// B's `thread/resume` late (a transport holding those answers 800 / 1600 ms: a busy codex) while B
// resumes the thread its owner A left mid-turn. The relay must not unsubscribe the thread after B's
// resume: B's next turn streams its text (with the bug: `text$` empty, completed by core's watchdog).
import { Observable } from "rxjs";
import { afterEach, expect, it } from "vitest";
import type { JsonRpcMessage, Transport } from "@codex-rpc/core";
import { reply } from "@codex-rpc/testing";
import { startRelay } from "../src/index.js";
import { spawnCodexInHome } from "./support/codex-in-home.js";
import { connectThroughRelay } from "./support/relay-clients.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function until(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  for (const start = Date.now(); !check(); ) {
    if (Date.now() - start > ms) throw new Error(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** `transport`, with codex's answers to some methods held a while (method → ms); every message sent recorded in `sent`. */
function slowAnswers(transport: Transport, sent: JsonRpcMessage[], delays: Readonly<Record<string, number>>): Transport {
  const held = new Map<unknown, number>();
  const longest = Math.max(...Object.values(delays));
  return {
    messages$: new Observable<JsonRpcMessage>((subscriber) =>
      transport.messages$.subscribe({
        next: (message) => {
          const delay = "method" in message ? undefined : held.get((message as { id: unknown }).id);
          if (delay === undefined) subscriber.next(message);
          else setTimeout(() => subscriber.next(message), delay);
        },
        complete: () => setTimeout(() => subscriber.complete(), longest + 10),
      }),
    ),
    diagnostics$: transport.diagnostics$,
    send: (message) => {
      sent.push(message);
      if ("method" in message && "id" in message && delays[message.method] !== undefined) held.set(message.id, delays[message.method]!);
      return transport.send(message);
    },
    close: () => transport.close(),
    closed: transport.closed,
  };
}

it("page B resumes the thread page A left mid-turn while the relay releases it: B's next turn streams", async () => {
  const { provider, home, workspace, spawned } = await spawnCodexInHome([reply.hang(), reply.text("B's answer")]);
  cleanups.push(async () => (await provider.close(), await home.cleanup()));
  const sent: JsonRpcMessage[] = [];
  const relay = await startRelay({ upstream: { transport: slowAnswers(spawned, sent, { "turn/interrupt": 800, "thread/resume": 1600 }) } });
  cleanups.push(() => relay.close());
  const methods = () => sent.filter((message) => "method" in message).map((message) => (message as { method: string }).method);

  const pageA = await connectThroughRelay(relay.url, { token: relay.token });
  const threadA = await pageA.startThread({ cwd: workspace, approvalPolicy: "never" });
  const turnA = threadA.run("never answered");
  turnA.completed.catch(() => {});
  await turnA.started;
  await until(() => provider.requests.length >= 1, "the model was asked");
  await pageA.close(); // the tab goes away mid-turn
  await until(() => methods().includes("turn/interrupt"), "the relay's interrupt");

  const pageB = await connectThroughRelay(relay.url, { token: relay.token });
  cleanups.push(() => pageB.close());
  const threadB = await pageB.resumeThread(threadA.id); // sent before the interrupt is answered, answered after it
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(methods().filter((method) => ["turn/interrupt", "thread/resume", "thread/unsubscribe"].includes(method))).toEqual(["turn/interrupt", "thread/resume"]);

  const turnB = threadB.run("second prompt");
  let streamed = "";
  turnB.text$.subscribe((delta) => (streamed += delta));
  const completed = await turnB.completed;
  expect(completed.status).toBe("completed");
  expect(streamed).toBe("B's answer");
}, 60_000);
