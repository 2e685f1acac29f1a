// Schema-driven fuzzing (fast-check) of what the server sends, derived from the pinned protocol
// itself: for every server notification and request method of the vendored JSON Schemas (checked
// against @codex-rpc/protocol's method lists), a valid params template, then mutations that break
// it — each required field missing, null, of the wrong type, an unknown enum value, extra fields,
// nesting up to 100 000 levels, multi-MB strings, params missing / null / an array / a string,
// unknown methods, bad ids — and lines that are no JSON object at all. The method's generated
// validator decides which cases are bad. Cases are injected into live turns between valid
// agent-message deltas; per case: nothing thrown where the user cannot catch it, the valid deltas
// on `turn.text$` in order, every turn and request settled, exactly one reply (result xor error) per
// server request, exactly one diagnostic per bad message with validation on (at most one off), an
// unknown method delivered to unknownNotifications() or answered -32601. Also: handlers that throw,
// reject or return what JSON cannot carry, and broken `turn/start` replies.
//
// 100 000 cases in CI, 1 000 000 with RELIABILITY_LONG=1 (FUZZ_CASES, FUZZ_HANDLER_CASES and
// FUZZ_REPLY_CASES set the counts). FUZZ_SEED=<n> replays a run's seed (printed first).
// FUZZ_EXPLORE=<n> collects up to n distinct shrunk counterexamples instead of stopping at the first
// (see property-rounds.ts), FUZZ_FINDINGS_FILE=<path> writes them as JSON; FUZZ_SETTLE_MS (default
// 2000) is how long a turn or a reply may take before it counts as hung (lower it on a client that hangs).
import { writeFileSync } from "node:fs";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { RELIABILITY_LONG, recordReliability } from "./support/reliability-report.js";
import { loadCatalogue, type Catalogue } from "./support/schema-fuzz/protocol-catalogue.mjs";
import { MUTATION_KINDS } from "./support/schema-fuzz/malformed-messages.mjs";
import { CrashWatch } from "./support/schema-fuzz/crash-watch.js";
import { FuzzSession, SESSION_CONFIGS, type SessionConfig } from "./support/schema-fuzz/fuzz-session.js";
import { HandlerSession } from "./support/schema-fuzz/handler-session.js";
import { TurnStartSession } from "./support/schema-fuzz/turn-start-replies.js";
import { runRounds, SessionPool, Violations, type Finding } from "./support/schema-fuzz/property-rounds.js";
import {
  BATCH_STEPS,
  batchArbitrary,
  exclusionKey,
  handlerCallsArbitrary,
  MUTATION_WEIGHTS,
  stepArbitrary,
  turnStartReplyArbitrary,
} from "./support/schema-fuzz/case-arbitraries.js";

const CASES = {
  messages: Number(process.env.FUZZ_CASES ?? (RELIABILITY_LONG ? 1_000_000 : 100_000)),
  handlers: Number(process.env.FUZZ_HANDLER_CASES ?? (RELIABILITY_LONG ? 100_000 : 10_000)),
  turnStartReplies: Number(process.env.FUZZ_REPLY_CASES ?? (RELIABILITY_LONG ? 20_000 : 2_000)),
};
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const EXPLORE = Number(process.env.FUZZ_EXPLORE ?? 0);
const TEST_TIMEOUT_MS = RELIABILITY_LONG ? 1_800_000 : EXPLORE ? 900_000 : 180_000;
const AREA = { messages: "fuzz: schema-derived malformed messages", handlers: "fuzz: handler results" } as const;

const crashes = new CrashWatch();
let catalogue: Catalogue;
const totals = { cases: 0, faults: 0, messagesChecked: 0, messagesLost: 0 };
const handlerTotals = { cases: 0, faults: 0, messagesChecked: 0, messagesLost: 0 };
const byMutation = new Map<string, [number, number]>();
const findings: Finding[] = [];

beforeAll(async () => {
  catalogue = await loadCatalogue();
  crashes.install();
  console.log(`schema fuzz: seed ${SEED} (FUZZ_SEED=${SEED} replays it), ${catalogue.entries.length} methods from the schemas`);
});

afterAll(() => {
  crashes.uninstall();
  const kinds = MUTATION_KINDS.filter((kind) => byMutation.has(kind)).map((kind) => `${kind} ${byMutation.get(kind)![0]} (${byMutation.get(kind)![1]} bad)`);
  console.log(`schema fuzz, cases per mutation kind: ${kinds.join(", ")}`);
  if (totals.cases > 0) recordReliability({ area: AREA.messages, ...totals });
  if (handlerTotals.cases > 0) recordReliability({ area: AREA.handlers, ...handlerTotals });
  if (process.env.FUZZ_FINDINGS_FILE) writeFileSync(process.env.FUZZ_FINDINGS_FILE, JSON.stringify(findings, null, 2));
});

it(
  `schema-derived malformed messages in live turns (${CASES.messages.toLocaleString("en")} cases): no crash, deltas in order, everything settles, one reply and one diagnostic each`,
  async () => {
    const sessions = new SessionPool<FuzzSession>((key) => FuzzSession.open(catalogue, SESSION_CONFIGS[Number(key)]!, crashes));
    const configKey = (config: SessionConfig) => String(SESSION_CONFIGS.indexOf(config));
    try {
      await runRounds({
        test: "messages",
        remaining: () => CASES.messages - totals.cases,
        casesPerRun: (BATCH_STEPS.min + BATCH_STEPS.max) / 2,
        seed: SEED,
        explore: EXPLORE,
        findings,
        property: (exclude) =>
          fc.asyncProperty(
            batchArbitrary(stepArbitrary(catalogue, MUTATION_WEIGHTS).filter((step) => !exclude.has(exclusionKey(step)))),
            async ({ config, steps }) => {
              const outcome = await sessions.use(configKey(config), (session) => session.runBatch(steps));
              totals.cases += outcome.cases;
              totals.faults += outcome.faults;
              totals.messagesChecked += outcome.messagesChecked;
              totals.messagesLost += outcome.messagesLost;
              for (const [kind, [all, bad]] of outcome.byMutation) {
                const tally = byMutation.get(kind) ?? [0, 0];
                byMutation.set(kind, [tally[0] + all, tally[1] + bad]);
              }
              if (outcome.violations.length > 0) throw new Violations(outcome.violations);
            },
          ),
        exclusionKeys: ({ steps }) => steps.map(exclusionKey),
      });
    } finally {
      await sessions.closeAll();
    }
    if (!EXPLORE) expect(totals.cases).toBeGreaterThanOrEqual(CASES.messages);
  },
  TEST_TIMEOUT_MS,
);

it(
  `handler results (${CASES.handlers.toLocaleString("en")} server requests): throws, rejections and values JSON cannot carry get exactly one reply each, an error with -32603`,
  async () => {
    const sessions = new SessionPool<HandlerSession>((key) => HandlerSession.open(catalogue, key === "validate", crashes));
    try {
      await runRounds({
        test: "handler results",
        remaining: () => CASES.handlers - handlerTotals.cases,
        casesPerRun: 30,
        seed: SEED,
        explore: EXPLORE,
        findings,
        property: (exclude) =>
          fc.asyncProperty(
            handlerCallsArbitrary(catalogue).filter(({ calls }) => calls.every((call) => !exclude.has(call.outcome))),
            async ({ validate, calls }) => {
              const outcome = await sessions.use(validate ? "validate" : "plain", (session) => session.run(calls));
              handlerTotals.cases += outcome.cases;
              handlerTotals.faults += outcome.faults;
              handlerTotals.messagesChecked += outcome.messagesChecked;
              handlerTotals.messagesLost += outcome.messagesLost;
              if (outcome.violations.length > 0) throw new Violations(outcome.violations);
            },
          ),
        exclusionKeys: ({ calls }) => calls.map((call) => call.outcome),
      });
    } finally {
      await sessions.closeAll();
    }
  },
  TEST_TIMEOUT_MS,
);

it(
  `broken turn/start replies (${CASES.turnStartReplies.toLocaleString("en")} turns): turn.started and turn.completed settle, nothing thrown`,
  async () => {
    const sessions = new SessionPool<TurnStartSession>((key) => TurnStartSession.open(catalogue, key === "validate", crashes));
    let cases = 0;
    try {
      await runRounds({
        test: "turn/start replies",
        remaining: () => CASES.turnStartReplies - cases,
        casesPerRun: 1,
        seed: SEED,
        explore: EXPLORE,
        findings,
        property: (exclude) =>
          fc.asyncProperty(
            turnStartReplyArbitrary().filter((spec) => !exclude.has(spec.mutation)),
            async ({ validate, ...spec }) => {
              const outcome = await sessions.use(validate ? "validate" : "plain", (session) => session.run(spec));
              cases++;
              totals.cases++;
              if (outcome.bad) totals.faults++;
              totals.messagesChecked++;
              if (outcome.hung) totals.messagesLost++;
              if (outcome.violations.length > 0) throw new Violations(outcome.violations);
            },
          ),
        exclusionKeys: (spec) => [spec.mutation],
      });
    } finally {
      await sessions.closeAll();
    }
  },
  TEST_TIMEOUT_MS,
);
