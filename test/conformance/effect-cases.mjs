// The conformance cases through the Effect binding (@codex-rpc/effect): each connection is the
// runtime's spawning Layer built in a Scope of its own, and the cases that exercise the API (thread
// start, the approval turn, interrupt, SIGKILL mid-turn) are written as Effect programs: Effects
// for requests, an approval answered by an Effect, the text as a Stream, the turn interrupted by
// interrupting the fiber that awaits it, the closed connection as the tagged `ConnectionClosed`.
// The handshake and version cases are core's, run on the client the Layer connected.
import { CodexClient, layerSpawn } from "@codex-rpc/effect";
import { Cause, Context, Effect, Exit, Fiber, Layer, Scope, Stream } from "effect";
import { APPROVAL_TURN, KILL_REPORT_BOUND_MS } from "./case-list.mjs";
import { CASES, check, describeError, eventually, ServerSet, withTimeout } from "./cases.mjs";
import { waitForModelRequests } from "./control-client.mjs";

/** Runs an Effect; a failure rejects with its error (a tagged error keeps its `code`), as a Promise would. */
async function run(effect) {
  const exit = await Effect.runPromiseExit(effect);
  if (Exit.isSuccess(exit)) return exit.value;
  throw Cause.squash(exit.cause);
}

/**
 * Connections made by the runtime's spawning Layer (`layerSpawn` with the runtime package's
 * `spawnCodexAppServer`: what `layerNode`, `layerDeno` and `layerBun` are), each built in its own
 * Scope; the spawn is wrapped only to learn the process id for the SIGKILL case.
 */
export class EffectServerSet extends ServerSet {
  async connect(scope, options = {}) {
    const { config, spawnCodexAppServer } = this.path;
    const server = { pid: undefined, scope: await run(Scope.make()) };
    this.servers.push(server);
    const spawn = (spawnOptions) =>
      spawnCodexAppServer(spawnOptions).then((transport) => {
        server.pid = transport.pid;
        return transport;
      });
    const layer = layerSpawn(
      spawn,
      { codexPath: config.codexPath, env: config.scopes[scope].env, cwd: config.workspace },
      {
        clientInfo: { name: "codex-rpc-conformance-effect", version: "0.0.0" },
        validate: true,
        ...(this.protocol ? { protocol: this.protocol } : {}),
        ...options,
      },
    );
    const context = await run(Scope.provide(server.scope)(Layer.build(layer)));
    server.codex = Context.get(context, CodexClient);
    server.client = server.codex.client;
    server.diagnostics = [];
    server.client.diagnostics$.subscribe((diagnostic) => server.diagnostics.push(diagnostic));
    return { client: server.client, codex: server.codex, pid: server.pid };
  }

  async dispose() {
    // Closing each Layer's scope closes its client and ends its process; then core's checks (kill what is left).
    for (const server of this.servers) await withTimeout(run(Scope.close(server.scope, Exit.void)), 6_000, "scope close timed out").catch(() => undefined);
    await super.dispose();
  }
}

export const EFFECT_CASES = {
  handshake: CASES.handshake,
  versions: CASES.versions,

  async threadStart(path, servers) {
    const { codex } = await servers.connect("threadStart");
    const thread = await run(codex.startThread({ cwd: path.config.workspace, approvalPolicy: "never" }));
    check(typeof thread.id === "string" && thread.id.length > 0, `thread id is ${JSON.stringify(thread.id)}`);
    return `thread ${thread.id} (Effect)`;
  },

  async approvalTurn(path, servers) {
    const asked = [];
    const { codex } = await servers.connect("approvalTurn", {
      approvals: (request) =>
        Effect.sync(() => {
          asked.push(request.kind);
          return "accept";
        }),
    });
    const { deltas, done } = await run(
      Effect.scoped(
        Effect.gen(function* () {
          const thread = yield* codex.startThread({ cwd: path.config.workspace, approvalPolicy: "untrusted" });
          const turn = yield* thread.run("Run the command, then report.");
          const deltas = yield* Stream.runCollect(turn.text);
          return { deltas, done: yield* turn.completed };
        }),
      ),
    );
    check(done.status === "completed", `turn ended ${done.status}: ${JSON.stringify(done.error)}`);
    check(asked.join() === "commandExecution", `approvals asked: [${asked.join()}], expected [commandExecution]`);
    const command = done.items.find((item) => item.type === "commandExecution");
    check(command?.status === "completed", `command item: ${JSON.stringify(command?.status)}`);
    check(String(command.aggregatedOutput).includes(APPROVAL_TURN.commandOutput), `command output ${JSON.stringify(command.aggregatedOutput)}`);
    check(deltas.join("") === APPROVAL_TURN.finalText, `the text Stream joined is ${JSON.stringify(deltas.join(""))}`);
    check(done.finalText === APPROVAL_TURN.finalText, `finalText is ${JSON.stringify(done.finalText)}`);
    return `approved by an Effect, output in item, ${deltas.length} Stream element(s) = final text`;
  },

  async interrupt(path, servers) {
    const { codex } = await servers.connect("interrupt");
    const status = await run(
      Effect.scoped(
        Effect.gen(function* () {
          const thread = yield* codex.startThread({ cwd: path.config.workspace, approvalPolicy: "never" });
          const turn = yield* thread.run("Think forever."); // the model's stream hangs
          yield* Effect.promise(() => turn.turn.started);
          yield* Effect.promise(() => waitForModelRequests(path.config, "interrupt", 1));
          // Started at once: a fiber interrupted before it ran never awaited the turn, so has nothing to interrupt.
          const waiting = yield* Effect.forkChild(turn.completed, { startImmediately: true });
          yield* Fiber.interrupt(waiting); // turn/interrupt, done once codex ended the turn
          return (yield* Effect.promise(() => turn.turn.completed)).status;
        }),
      ),
    );
    check(status === "interrupted", `turn ended ${status}, expected interrupted`);
    return "Fiber.interrupt: status interrupted";
  },

  async killMidTurn(path, servers) {
    const { codex, pid } = await servers.connect("killMidTurn");
    const { error, elapsedMs } = await run(
      Effect.scoped(
        Effect.gen(function* () {
          const thread = yield* codex.startThread({ cwd: path.config.workspace, approvalPolicy: "never" });
          const turn = yield* thread.run("Hang.");
          yield* Effect.promise(() => turn.turn.started);
          yield* Effect.promise(() => waitForModelRequests(path.config, "killMidTurn", 1));
          const killedAt = performance.now();
          path.killProcess(pid);
          const error = yield* Effect.flip(turn.completed).pipe(Effect.timeout("5 seconds"));
          return { error, elapsedMs: performance.now() - killedAt };
        }),
      ),
    );
    check(error?._tag === "ConnectionClosed", `turn.completed failed with ${error?._tag}: ${describeError(error)}`);
    check(elapsedMs < KILL_REPORT_BOUND_MS, `failed ${elapsedMs.toFixed(0)} ms after SIGKILL (bound ${KILL_REPORT_BOUND_MS} ms)`);
    const gone = await eventually(() => !path.processExists(pid), 2_000);
    check(gone, `server pid ${pid} still exists 2 s after SIGKILL`);
    return `ConnectionClosed ${elapsedMs.toFixed(0)} ms after SIGKILL; pid gone`;
  },
};
