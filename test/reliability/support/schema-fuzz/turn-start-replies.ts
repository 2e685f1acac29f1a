// `turn/start` replies broken by the same mutations (the schema's valid TurnStartResponse, then a
// required field missing, null, of the wrong type, …): whatever the reply, `turn.started` and
// `turn.completed` settle — the turn id a reply gave gets a valid turn/completed — and nothing is
// thrown where the user cannot catch it. With validation on, a reply the validator rejects fails the turn.
import { CodexClient, type CodexThread } from "@codex-rpc/core";
import { FakeAppServer } from "@codex-rpc/testing";
import type { Catalogue } from "./protocol-catalogue.mjs";
import { buildCase, type CaseSpec } from "./malformed-messages.mjs";
import { answerThreadRequests, answerTurnStart, closingLine, liveIds } from "./live-turn.mjs";
import { type CrashWatch, describeCrash, settleReports } from "./crash-watch.js";
import { outcomeWithin, SETTLE_BOUND_MS } from "./fuzz-session.js";

export interface TurnStartReplyOutcome {
  readonly violations: readonly string[];
  readonly bad: boolean;
  readonly mutation: string;
  /** turn.started or turn.completed never settled. */
  readonly hung: boolean;
}

export class TurnStartSession {
  #seq = 1;

  private constructor(
    private readonly catalogue: Catalogue,
    private readonly fake: FakeAppServer,
    private readonly turns: ReturnType<typeof answerTurnStart>,
    readonly client: CodexClient,
    private readonly thread: CodexThread,
    readonly validate: boolean,
    private readonly crashes: CrashWatch,
  ) {}

  static async open(catalogue: Catalogue, validate: boolean, crashes: CrashWatch): Promise<TurnStartSession> {
    const fake = new FakeAppServer({ framing: "ndjson" });
    answerThreadRequests(fake, catalogue);
    const turns = answerTurnStart(fake, catalogue);
    const client = await CodexClient.connect(fake.transport, { validate: validate ? catalogue.validators : false, requestTimeoutMs: 10_000 });
    const thread = await client.startThread();
    return new TurnStartSession(catalogue, fake, turns, client, thread, validate, crashes);
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  async run(spec: Omit<CaseSpec, "entry">): Promise<TurnStartReplyOutcome> {
    const violations: string[] = [];
    const seq = this.#seq++;
    let built: ReturnType<typeof buildCase> | undefined;
    this.turns.replaceNext((ids) => {
      built = buildCase(this.catalogue.turnStartResponse, spec, seq, ids);
      return (built.message as { params?: unknown }).params;
    });
    const turn = this.thread.run("fuzz");
    const started = await outcomeWithin(turn.started, SETTLE_BOUND_MS);
    const result = (built?.message as { params?: unknown } | undefined)?.params;
    const valid = this.catalogue.turnStartResponse.validate(result);
    const what = `turn/start reply ${built?.mutation ?? spec.mutation}${built?.detail ? ` (${built.detail.slice(0, 80)})` : ""}${valid ? "" : ", bad"}: ${JSON.stringify(result)?.slice(0, 160)}`;
    if (started.settled === "pending") violations.push(`${what}: turn.started never settled (hang)`);
    if (started.settled === "resolved") {
      if (typeof started.value !== "string") violations.push(`${what}: turn.started resolved with a ${typeof started.value}, not a turn id`);
      else this.fake.sendRaw(`${closingLine(this.catalogue, liveIds(this.thread.id, started.value), 1_000_000_000 + seq)}\n`);
    }
    if (valid && started.settled !== "resolved") violations.push(`${what}: a valid reply, yet turn.started ${started.settled}`);
    if (!valid && this.validate && started.settled === "resolved") violations.push(`${what}: validation is on and the reply is bad, yet turn.started resolved`);
    const completed = await outcomeWithin(turn.completed, SETTLE_BOUND_MS);
    if (completed.settled === "pending") violations.push(`${what}: turn.completed never settled (hang), turn.started ${started.settled}`);
    if (valid && completed.settled !== "resolved") violations.push(`${what}: a valid reply and turn/completed, yet turn.completed ${completed.settled}`);
    await settleReports();
    for (const crash of this.crashes.take()) violations.push(`${what}: CRASH ${describeCrash(crash)}`);
    this.fake.received.splice(0);
    return { violations, bad: !valid, mutation: built?.mutation ?? spec.mutation, hung: started.settled === "pending" || completed.settled === "pending" };
  }
}
