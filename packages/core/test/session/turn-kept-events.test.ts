// `keepEvents` / `takeEvents()`: a reader that comes late gets the turn's notifications from its
// start, each run of deltas of one item joined, then follows `events$` with nothing missed or
// twice. Checked against what a subscriber from the start saw, on seeded random turns that mix
// agent text (wide characters, surrogate pairs), command output, reasoning with indexes, deltas
// of unknown or mismatched items, restarted and completed items, and `itemsSoFar()` mid-run.
import type { ServerNotification } from "@codex-rpc/protocol";
import { randomSource } from "@codex-rpc/test-support/random-source.js";
import { beforeAll, expect, it } from "vitest";
import { TurnItemsFold } from "../../src/session/turn-items.js";
import { TurnJournal } from "../../src/session/turn-journal.js";
import { connect } from "../support/connect-to-fake.js";

type Note = { method: string; params: Record<string, unknown> };

const PIECES = ["the ", "file ", "’s ", "value—", "😀", "é", "\n", "x".repeat(300), "ok. "];
const agent = (id: string, text: string) => ({ type: "agentMessage", id, text, phase: null, memoryCitation: null });
const command = (id: string, output: string | null) => ({
  type: "commandExecution",
  id,
  command: "ls",
  cwd: "/",
  processId: null,
  status: "inProgress",
  commandActions: [],
  aggregatedOutput: output,
  exitCode: null,
  durationMs: null,
});

/** A random turn's notifications after `turn/started` (thread and turn ids filled in by `play`). */
function randomTurn(seed: number, length: number): Note[] {
  const next = randomSource(seed);
  const pick = <A>(list: readonly A[]): A => list[Math.floor(next() * list.length)] as A;
  const notes: Note[] = [
    { method: "item/started", params: { item: agent("a", "") } },
    { method: "item/started", params: { item: command("c", null) } },
  ];
  for (let i = 0; i < length; i++) {
    const roll = next();
    const piece = pick(PIECES);
    if (roll < 0.45) notes.push({ method: "item/agentMessage/delta", params: { itemId: "a", delta: piece } });
    else if (roll < 0.6) notes.push({ method: "item/commandExecution/outputDelta", params: { itemId: "c", delta: piece } });
    else if (roll < 0.7) notes.push({ method: "item/reasoning/textDelta", params: { itemId: "r", contentIndex: next() < 0.5 ? 0 : 1, delta: piece } });
    else if (roll < 0.74) notes.push({ method: "item/agentMessage/delta", params: { itemId: "ghost", delta: piece } });
    else if (roll < 0.77) notes.push({ method: "item/commandExecution/outputDelta", params: { itemId: "a", delta: piece } });
    else if (roll < 0.8) notes.push({ method: "thread/tokenUsage/updated", params: { tokenUsage: { total: i } } });
    else if (roll < 0.82) notes.push({ method: "item/completed", params: { item: agent("a", `server's own text ${i}`) } });
    else if (roll < 0.83) notes.push({ method: "item/started", params: { item: command("c", "restarted: ") } });
    else notes.push({ method: "item/agentMessage/delta", params: { itemId: "a", delta: piece } });
  }
  return notes;
}

/** What `takeEvents()` should give for `events`: each run of deltas of one item (same method and fields) joined. */
function joinRuns(events: readonly Note[]): Note[] {
  const out: Note[] = [];
  const fields = (params: Record<string, unknown>) => JSON.stringify(Object.entries(params).filter(([key]) => key !== "delta"));
  for (const event of events) {
    const last = out.at(-1);
    if (
      typeof event.params.delta === "string" &&
      last !== undefined &&
      typeof last.params.delta === "string" &&
      last.method === event.method &&
      fields(last.params) === fields(event.params)
    ) {
      out[out.length - 1] = { method: last.method, params: { ...last.params, delta: (last.params.delta as string) + event.params.delta } };
    } else out.push(event);
  }
  return out;
}

/**
 * Plays `notes` as one turn; while the reference subscriber (there from the start) sees note
 * number `takeAt`, takes the kept events and subscribes a late reader. Returns what each saw.
 */
async function play(notes: readonly Note[], { takeAt, materialiseEvery = 0 }: { takeAt: number; materialiseEvery?: number }) {
  const { server, client } = await connect();
  const thread = await client.startThread();
  const threadId = thread.id;
  const started = { id: "t1", items: [], status: "inProgress", error: null };
  server.respond("turn/start", () => {
    setTimeout(() => {
      server.notify("turn/started", { threadId, turn: started });
      for (const note of notes) server.notify(note.method, { threadId, turnId: "t1", ...note.params });
      server.notify("turn/completed", { threadId, turn: { ...started, status: "completed" } });
    }, 1);
    return { result: { turn: started } };
  });
  const turn = thread.run("go", { keepEvents: true });
  const reference: ServerNotification[] = [];
  const late: ServerNotification[] = [];
  let taken: ServerNotification[] | undefined;
  turn.events$.subscribe((event) => {
    reference.push(event);
    if (materialiseEvery > 0 && reference.length % materialiseEvery === 0) turn.itemsSoFar();
    if (reference.length - 1 === takeAt) {
      taken = turn.takeEvents();
      turn.events$.subscribe((event) => late.push(event));
    }
  });
  await turn.completed;
  if (taken === undefined) {
    taken = turn.takeEvents();
    turn.events$.subscribe((event) => late.push(event)); // ended: completes at once
  }
  await client.close();
  return { reference, taken, late, turn };
}

const strip = (events: readonly ServerNotification[]): Note[] =>
  events.map((event) => {
    const { threadId: _, turnId: __, ...params } = event.params as Record<string, unknown>;
    return { method: event.method, params };
  });

// The journal's code loads on demand with a process's first keepEvents turn: the turns below find
// it loaded (what a turn keeps before then is checked on the journal itself, last in this file).
beforeAll(async () => {
  await play([], { takeAt: 0 });
  await new Promise((resolve) => setTimeout(resolve, 50));
});

it.each([
  [1, 40, 0],
  [2, 2_000, 0],
  [3, 2_000, 7],
  [4, 2_000, 1],
  [5, 500, 3],
])(
  "seed %i, %i notes (itemsSoFar every %i): the late reader's kept events and live ones are the turn from its start, runs joined",
  async (seed, length, materialiseEvery) => {
    const notes = randomTurn(seed, length);
    for (const takeAt of [0, Math.floor(length / 3), length + 10]) {
      const { reference, taken, late } = await play(notes, { takeAt, materialiseEvery });
      expect(reference.length).toBe(notes.length + 2);
      const cut = Math.min(takeAt + 1, reference.length);
      expect(strip(taken)).toEqual(joinRuns(strip(reference.slice(0, cut))));
      expect(strip(late)).toEqual(strip(reference.slice(cut)));
    }
  },
);

it("ten thousand deltas of one message are kept as one event, and a second take or a turn without keepEvents gives none", async () => {
  const pieces = Array.from({ length: 10_000 }, (_, i) => `${i} `);
  const notes: Note[] = [
    { method: "item/started", params: { item: agent("a", "") } },
    ...pieces.map((delta) => ({ method: "item/agentMessage/delta", params: { itemId: "a", delta } })),
    { method: "item/completed", params: { item: agent("a", pieces.join("")) } },
  ];
  const { taken, turn } = await play(notes, { takeAt: Number.MAX_SAFE_INTEGER });
  expect(taken.map((event) => event.method)).toEqual(["turn/started", "item/started", "item/agentMessage/delta", "item/completed", "turn/completed"]);
  expect(taken[2]?.params).toMatchObject({ itemId: "a", delta: pieces.join("") });
  expect(turn.takeEvents()).toEqual([]);

  const { server, client } = await connect();
  const thread = await client.startThread();
  server.respond("turn/start", () => {
    setTimeout(() => server.notify("turn/completed", { threadId: thread.id, turn: { id: "t2", items: [], status: "completed", error: null } }), 1);
    return { result: { turn: { id: "t2", items: [], status: "inProgress", error: null } } };
  });
  const plain = thread.run("go");
  await plain.completed;
  expect(plain.takeEvents()).toEqual([]);
  await client.close();
});

it.each([0, 1, 7, 300, 1_999])(
  "what came before the journal's code loaded (the first %i notes) is copied, the rest points into the fold, and a run cut by the load is still one event",
  (early) => {
    const notes = randomTurn(6, 2_000).map((note) => ({ method: note.method, params: { threadId: "t", turnId: "u", ...note.params } }));
    const fold = new TurnItemsFold();
    const journal = new TurnJournal();
    notes.forEach((note, i) => {
      const phase = fold.apply(note as ServerNotification);
      journal.record(note as ServerNotification, i >= early && phase === "delta" ? fold.lastGrown : undefined);
    });
    expect(strip(journal.events())).toEqual(joinRuns(strip(notes as ServerNotification[])));
  },
);

it("two commands' output in turns, each delta with a wide character (`tree`'s ├──): a delta costs the same however many came before", () => {
  const deltas = 200_000;
  const notes: Note[] = [
    { method: "item/started", params: { threadId: "t", turnId: "u", item: command("a", null) } },
    { method: "item/started", params: { threadId: "t", turnId: "u", item: command("b", null) } },
  ];
  for (let i = 0; i < deltas; i++)
    notes.push({ method: "item/commandExecution/outputDelta", params: { threadId: "t", turnId: "u", itemId: i % 2 === 0 ? "a" : "b", delta: `├── ${i}\n` } });
  const fold = new TurnItemsFold();
  const journal = new TurnJournal();
  const start = performance.now();
  for (const note of notes) {
    const phase = fold.apply(note as ServerNotification);
    journal.record(note as ServerNotification, phase === "delta" ? fold.lastGrown : undefined);
  }
  const elapsed = performance.now() - start;
  // Each run of one item's deltas is one delta here, and each asks its item's text length: counted
  // over every wide piece so far, the deltas cost quadratic time (8 s here; a few tens of ms linear).
  expect(elapsed).toBeLessThan(2_000);
  expect(strip(journal.events())).toEqual(strip(notes as ServerNotification[]));
});
