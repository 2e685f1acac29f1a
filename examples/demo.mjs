#!/usr/bin/env node
// @ts-check (type-checked by the root tsconfig.json, part of `pnpm typecheck`)
// codex-rpc demo: one real `codex app-server` turn, streamed to the terminal.
//
//   npx -y pnpm@12.21.0 demo               offline: the bundled mock model asks to run `ls`; the
//                                          approval request and the decision are printed, then the
//                                          agent's answer streams in
//   npx -y pnpm@12.21.0 demo --real "…"    your own codex login and model (your ~/.codex), with
//                                          your prompt; approvals are asked on the terminal
//                                          (declined when there is no terminal to ask)
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { CodexClient } from "@codex-rpc/core";
import { spawnCodexAppServer } from "@codex-rpc/stdio";
import { MockResponsesProvider, createCodexHome, reply } from "@codex-rpc/testing";

// `pnpm demo -- --real "…"` hands the script a literal `--` first, after which parseArgs would take
// `--real` for a word of the prompt and run the offline demo: drop it.
const args = process.argv.slice(2);
if (args[0] === "--") args.shift();
const { values, positionals } = parseArgs({ args, options: { real: { type: "boolean", default: false } }, allowPositionals: true });
if (!values.real && positionals.length > 0) {
  console.error(`demo: a prompt ("${positionals.join(" ")}") is only for your own model: pass --real before it`);
  process.exit(2);
}
/** @param {string} text */
const dim = (text) => (process.stdout.isTTY ? `\x1b[2m${text}\x1b[0m` : text);
/** @param {string} text */
const bold = (text) => (process.stdout.isTTY ? `\x1b[1m${text}\x1b[0m` : text);

/** Stops the demo with a message for the user and an exit code, not as a failure of the demo. */
class DemoExit extends Error {
  /**
   * @param {string} message
   * @param {number} exitCode
   */
  constructor(message, exitCode) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** @type {(() => Promise<unknown>)[]} */
const cleanups = [];
// Ctrl-C: the turn is interrupted (once there is one) and the demo ends, removing what it made.
let interrupted = false;
/** @type {() => void} */
let stopTurn = () => undefined;
process.on("SIGINT", () => {
  interrupted = true;
  stopTurn();
});
try {
  const workspace = await mkdtemp(join(tmpdir(), "codex-rpc-demo-"));
  cleanups.push(() => rm(workspace, { recursive: true, force: true }));
  await writeFile(join(workspace, "README.md"), "# A demo workspace\n");
  await writeFile(join(workspace, "notes.txt"), "codex-rpc was here\n");

  let env;
  let prompt;
  if (values.real) {
    // Your own codex: its login, config and model come with HOME / CODEX_HOME, which the client
    // passes by default; nothing else of your environment does, except an API key if you use one.
    env = { OPENAI_API_KEY: process.env.OPENAI_API_KEY };
    prompt = positionals.join(" ") || "List the files in this directory and say what they are.";
  } else {
    const provider = await MockResponsesProvider.start({
      script: [
        reply.combined(
          reply.text("Let me look at the workspace first."),
          reply.execCommand({ cmd: "ls -1", sandbox_permissions: "require_escalated", justification: "List the files in the workspace" }),
        ),
        reply.text("The workspace holds two files: README.md, a one-line title, and notes.txt, a note that codex-rpc was here. Nothing else to report.", {
          chunks: 16,
        }),
      ],
    });
    cleanups.push(() => provider.close());
    const home = await createCodexHome({ provider });
    cleanups.push(() => home.cleanup());
    env = home.env;
    prompt = "What is in this workspace?";
    console.log(dim(`mock model on ${provider.url}, CODEX_HOME ${home.dir}`));
  }

  const transport = await spawnCodexAppServer({ env, cwd: workspace });
  const client = await CodexClient.connect(transport, {
    clientInfo: { name: "codex-rpc-demo", title: "codex-rpc demo", version: "0.1.0" },
    approvals: async (request) => {
      const what = request.kind === "commandExecution" ? request.params.command : request.kind;
      console.log(`\n${bold("approval requested")}: ${what}${"reason" in request.params && request.params.reason ? ` — ${request.params.reason}` : ""}`);
      const decision = values.real ? await ask("Run it? [y/N] ") : "accept";
      console.log(`${bold("decision")}: ${decision}`);
      return decision;
    },
  });
  cleanups.unshift(() => client.close());
  console.log(dim(`connected to ${client.initializeResponse.userAgent}`));
  if (values.real) {
    // Without a login codex still takes the turn, then retries the model for ever ("waiting for
    // network"): say so now instead of streaming nothing.
    const { account, requiresOpenaiAuth } = await client.account.read();
    if (account === null && requiresOpenaiAuth && !process.env.OPENAI_API_KEY) {
      throw new DemoExit("codex is not logged in: run `npx @openai/codex login` (or set OPENAI_API_KEY), then try again", 2);
    }
  }

  const thread = await client.startThread({ cwd: workspace, approvalPolicy: "untrusted" });
  console.log(`${bold("you")}: ${prompt}`);
  process.stdout.write(`${bold("codex")}: `);
  const turn = thread.run(prompt);
  stopTurn = () => void turn.interrupt().catch(() => undefined);
  if (interrupted) stopTurn();
  let midLine = true;
  /** A line of the demo's own beside the streamed answer. @param {string} text */
  const aside = (text) => {
    console.log(`${midLine ? "\n" : ""}${dim(text)}`);
    midLine = false;
  };
  turn.text$.subscribe((delta) => {
    process.stdout.write(delta);
    midLine = !delta.endsWith("\n");
  });
  // codex reports each retry of the model (an `error` with willRetry): show it, or a turn that
  // cannot reach its model looks like a hang.
  let retried = false;
  turn.events$.subscribe((event) => {
    if (event.method !== "error" || !event.params.willRetry) return;
    if (!retried) aside("(codex retries the model; Ctrl-C stops the turn)");
    retried = true;
    const { message, additionalDetails } = event.params.error;
    aside(`(codex: ${message}${additionalDetails ? ` ${additionalDetails}` : ""})`);
  });
  turn.items$.subscribe(({ phase, item }) => {
    if (phase === "completed" && item.type === "commandExecution") {
      console.log(dim(`\n$ ${item.command}\n${(item.aggregatedOutput ?? "").trimEnd()}\n(${item.status}, exit ${item.exitCode})`));
    }
    if (phase === "completed" && item.type === "agentMessage") process.stdout.write("\n");
  });
  const done = await turn.completed;
  console.log(dim(`\nturn ${done.status}; ${done.items.length} items`));
  process.exitCode = interrupted ? 130 : done.status === "completed" ? 0 : 1;
} catch (error) {
  if (interrupted) {
    // A terminal's Ctrl-C reaches codex too (same process group): it ends, and so does the turn.
    console.error("demo: interrupted (Ctrl-C)");
    process.exitCode = 130;
  } else {
    console.error(`demo${error instanceof DemoExit ? "" : " failed"}: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = error instanceof DemoExit ? error.exitCode : 1;
  }
} finally {
  for (const cleanup of cleanups) await cleanup().catch(() => undefined);
}

/**
 * @param {string} question
 * @returns {Promise<"accept" | "decline">}
 */
async function ask(question) {
  if (!process.stdin.isTTY) return "decline";
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim()) ? "accept" : "decline";
  } finally {
    rl.close();
  }
}
