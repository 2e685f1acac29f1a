#!/usr/bin/env node
// 10 000 turns against a FakeAppServer that sends every malformed shape the schema fuzzer knows
// (test/reliability/support/schema-fuzz/malformed-messages.mjs, derived from the vendored 0.169.0
// schemas), in rotation, inside live turns and between valid agent-message deltas — required fields
// missing, null or of the wrong type, unknown enum values, extra fields, 100 000-deep nesting,
// multi-MB strings, params missing / null / an array / a string, unknown methods, bad ids, lines
// that are not JSON objects — plus one server request per turn answered by a handler that throws,
// rejects or returns what JSON cannot carry (handler-outcomes.mjs), in rotation too.
//
// This program's own code catches nothing: no try/catch, no .catch, no error handlers on process.
// Whatever the library throws where a user cannot catch it ends the program (exit 1). It prints
// the diagnostics by kind, the turns completed and the server requests answered, and exits 0.
//
// Turns alternate between two clients: validation on with handlers for every server request, and
// validation off with the library's own answers (approval policy, a dynamic tool, -32601).
//
// Usage: node tools/malformed-turns.mjs [--turns N] [--per-turn K] [--only mutation,mutation] [--outcomes REGEX]
//   --only keeps the listed mutations (see MUTATION_KINDS); --outcomes the handler outcomes whose name matches.
//   --only with a short list repeats its cases many times (--only oversize-line: 20 000 lines of 4 MiB).
//   Runs the built packages; the root script `npx -y pnpm@12.21.0 malformed-turns` builds them first.
import { parseArgs } from "node:util";
import { CodexClient } from "@codex-rpc/core";
import { FakeAppServer } from "@codex-rpc/testing";
import { loadCatalogue } from "../test/reliability/support/schema-fuzz/protocol-catalogue.mjs";
import { buildCase, enumerateSpecs, instantiate, LINE_CAP_BYTES, requestIdFor } from "../test/reliability/support/schema-fuzz/malformed-messages.mjs";
import { HANDLER_OUTCOMES } from "../test/reliability/support/schema-fuzz/handler-outcomes.mjs";
import {
  answerThreadRequests,
  answerTurnStart,
  closingLine,
  liveIds,
  openingLines,
  validNotificationLine,
} from "../test/reliability/support/schema-fuzz/live-turn.mjs";

const { values: args } = parseArgs({
  options: {
    turns: { type: "string", default: "10000" },
    "per-turn": { type: "string", default: "2" },
    only: { type: "string" },
    outcomes: { type: "string" },
  },
});
const TURNS = Number(args.turns);
const PER_TURN = Number(args["per-turn"]);
const ONLY = args.only ? new Set(args.only.split(",")) : undefined;
const OUTCOMES = HANDLER_OUTCOMES.filter((outcome) => !args.outcomes || new RegExp(args.outcomes).test(outcome.name));

const startedAt = performance.now();
const catalogue = await loadCatalogue();
const specs = enumerateSpecs(catalogue.entries).filter((spec) => !ONLY || ONLY.has(spec.mutation));
const requestMethods = catalogue.entries.filter((entry) => entry.kind === "request").map((entry) => entry.method);

/** One client on its own fake server, with counters. */
async function openSession(name, validate) {
  const fake = new FakeAppServer({ framing: "ndjson", maxLineBytes: LINE_CAP_BYTES });
  answerThreadRequests(fake, catalogue);
  answerTurnStart(fake, catalogue);
  const outcomes = new Map();
  const options = { validate: validate ? catalogue.validators : false, requestTimeoutMs: 10_000 };
  if (validate) {
    // Handlers for every server request: the rotation's outcome for its request, else the schema's valid result.
    options.handlers = Object.fromEntries(
      catalogue.entries
        .filter((entry) => entry.kind === "request")
        .map((entry) => [
          entry.method,
          (_params, context) => (outcomes.has(String(context.id)) ? outcomes.get(String(context.id)).run() : structuredClone(entry.result.params)),
        ]),
    );
  } else {
    options.approvals = "decline";
    options.tools = [{ name: "tool-v", description: "answers ok", inputSchema: { type: "object" }, handler: () => "ok" }];
  }
  const client = await CodexClient.connect(fake.transport, options);
  const diagnostics = new Map();
  client.diagnostics$.subscribe((diagnostic) => diagnostics.set(diagnostic.kind, (diagnostics.get(diagnostic.kind) ?? 0) + 1));
  const thread = await client.startThread();
  return { name, fake, client, thread, outcomes, diagnostics, turns: 0, statuses: new Map(), requestsSent: 0, replies: 0, errorReplies: 0, seq: 1 };
}

const sessions = [await openSession("validate on, handlers", true), await openSession("validate off, library defaults", false)];
let cursor = 0;
let handlerCursor = 0;
let cases = 0;

for (let index = 0; index < TURNS; index++) {
  const session = sessions[index % sessions.length];
  const turn = session.thread.run("a turn full of malformed messages");
  const ids = liveIds(session.thread.id, await turn.started);
  const send = (line) => session.fake.sendRaw(`${line}\n`);
  for (const line of openingLines(catalogue, ids, session.seq)) send(line);
  session.seq += 3;
  for (let k = 0; k < PER_TURN && specs.length > 0; k++) {
    const spec = specs[cursor++ % specs.length];
    send(validNotificationLine(catalogue, "item/agentMessage/delta", { ...ids, text: `delta ${index}.${k} ` }, session.seq++));
    const built = buildCase(catalogue.entries[spec.entry], spec, session.seq++, { ...ids, text: `case ${index}.${k} ` });
    if (built.expectsReply) session.requestsSent++;
    send(built.line);
    cases++;
  }
  if (session === sessions[0] && OUTCOMES.length > 0) {
    // A server request answered by a handler doing the rotation's next outcome.
    const outcome = OUTCOMES[handlerCursor % OUTCOMES.length];
    const method = requestMethods[handlerCursor++ % requestMethods.length];
    const id = requestIdFor(session.seq++);
    session.outcomes.set(String(id), outcome);
    send(JSON.stringify({ id, method, params: instantiate(catalogue.byMethod.get(method), ids) }));
    session.requestsSent++;
  }
  send(closingLine(catalogue, ids, session.seq++));
  // Every turn completes: a rejection here would end the program, and is a finding.
  const completed = await turn.completed;
  session.turns++;
  session.statuses.set(completed.status, (session.statuses.get(completed.status) ?? 0) + 1);
  if (index % 64 === 63) countReplies(session);
}

// Let the last replies go out, then close.
await new Promise((resolve) => setTimeout(resolve, 50));
for (const session of sessions) {
  countReplies(session);
  await session.client.close();
}

console.log(
  `malformed turns: ${TURNS.toLocaleString("en")} turns, ${cases.toLocaleString("en")} malformed-shape cases from ${specs.length.toLocaleString("en")} in rotation (${catalogue.entries.length} methods), ${((performance.now() - startedAt) / 1000).toFixed(1)} s`,
);
for (const session of sessions) {
  // A turn/completed whose status is a string the schema does not list still ends the turn (forward compatible): shown cut short.
  const statuses = [...session.statuses].map(([status, count]) => `${JSON.stringify(status).slice(0, 32)} ${count.toLocaleString("en")}`).join(", ");
  console.log(`\n${session.name}:`);
  console.log(`  turns completed: ${session.turns.toLocaleString("en")} (${statuses})`);
  console.log(
    `  server requests: ${session.requestsSent.toLocaleString("en")} sent (a method and a string or number id), ${session.replies.toLocaleString("en")} replies (${session.errorReplies.toLocaleString("en")} errors)`,
  );
  console.log(`  diagnostics by kind:`);
  for (const [kind, count] of [...session.diagnostics].sort((a, b) => b[1] - a[1])) console.log(`    ${kind.padEnd(24)} ${count.toLocaleString("en")}`);
}

/** Counts the client's replies the fake received, and forgets them (the fake keeps everything). */
function countReplies(session) {
  for (const message of session.fake.received) {
    if (Object.hasOwn(message, "method") || !Object.hasOwn(message, "id")) continue;
    session.replies++;
    if (Object.hasOwn(message, "error")) session.errorReplies++;
  }
  session.fake.received.splice(0);
  session.outcomes.clear();
}
