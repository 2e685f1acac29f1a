// Checks the generated result validators against what the real, pinned `codex app-server`
// answers. Every side-effect-free read method of the stable ClientRequestMap that answers
// without network or an account is called once, and its result must pass
// `clientRequestResults[method]` (the incoming validators chunk).
//
// Nothing leaves the machine: CODEX_HOME is a fresh temporary directory whose config.toml
// points codex at a loopback model provider on a port nobody listens on, and the child gets
// a clean environment (no API key, no login, HOME is the temporary directory).
//
// Read methods left out, with the error codex 0.169.0 gave offline (probed by hand):
//   account/rateLimits/read         -32600 "codex account authentication required to read rate limits"
//   account/usage/read              -32600 "codex account authentication required to read token usage"
//   account/workspaceMessages/read  -32600 "codex account authentication required to read workspace messages"
//   plugin/share/list               -32600 "list remote plugin shares: chatgpt authentication required for remote plugin catalog"
//   plugin/read                     -32600 "plugin/read requires exactly one of marketplacePath or remoteMarketplaceName";
//                                   with remoteMarketplaceName: "read remote plugin details: chatgpt authentication
//                                   required for remote plugin catalog"; with a marketplacePath it needs a real
//                                   marketplace file ("marketplace file `…` does not exist")
//   plugin/skill/read               -32600 "read remote plugin skill details: chatgpt authentication required for remote plugin catalog"
//   mcpServer/resource/read         -32603 "unknown MCP server 'x'" (needs a configured MCP server)
//   thread/read                     -32600 "thread not loaded: <id>"  } need an existing thread, and only
//   thread/turns/list               -32600 "thread not loaded: <id>"  } writes (thread/start, …) create one
//   thread/goal/get                 -32600 "thread not found: <id>"   }
//   thread/items/list               -32601 "thread/items/list is not supported yet"
// collaborationMode/list answers offline too, but it is only in the experimental map, not the stable one.

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClientRequestMap, ClientRequestMethod } from "@codex-rpc/protocol";
import type { Validator } from "@codex-rpc/protocol/validators";
import { clientRequestResults, serverNotificationParams } from "@codex-rpc/protocol/validators/incoming";
import { AppServerProcess, findUnusedLoopbackPort, type JsonRpcReply } from "./support/app-server-process.js";
import { PINNED_CODEX_VERSION, pinnedCodexBinary } from "@codex-rpc/test-support/pinned-codex.js";

const CODEX_VERSION = "0.169.0";
const NO_SUCH_THREAD = "00000000-0000-0000-0000-000000000000";

interface Context {
  /** The temporary CODEX_HOME, also HOME and the server's cwd. */
  readonly home: string;
}

interface ReadCase {
  readonly method: ClientRequestMethod;
  readonly send: (server: AppServerProcess, context: Context) => Promise<JsonRpcReply>;
}

/** A read request whose params are type-checked against the generated ClientRequestMap. */
function read<M extends ClientRequestMethod>(method: M, params: (context: Context) => ClientRequestMap[M]["params"]): ReadCase {
  return { method, send: (server, context) => server.request(method, params(context)) };
}

const READS: readonly ReadCase[] = [
  read("config/read", ({ home }) => ({ cwd: home, includeLayers: true })),
  read("configRequirements/read", () => undefined),
  read("model/list", () => ({ includeHidden: true })),
  read("modelProvider/list", () => ({})),
  read("modelProvider/capabilities/read", () => ({})),
  read("account/read", () => ({ refreshToken: false })),
  read("account/gatewayOAuth/read", () => ({})),
  read("account/securitySetup/read", () => undefined),
  read("thread/list", () => ({})),
  read("thread/loaded/list", () => ({})),
  read("thread/attachment/list", () => ({ threadId: NO_SUCH_THREAD })),
  read("thread/attachmentOwner/list", () => ({ attachmentType: "file", identityKey: "nothing-here" })),
  read("threadSection/list", () => ({})),
  read("skills/list", ({ home }) => ({ cwds: [home] })),
  read("hooks/list", ({ home }) => ({ cwds: [home] })),
  read("plugin/list", () => ({})),
  read("plugin/installed", () => ({})),
  read("app/list", () => ({})),
  read("app/read", () => ({ appIds: ["no-such-app"] })),
  read("app/installed", () => ({})),
  read("mcpServerStatus/list", () => ({})),
  read("experimentalFeature/list", () => ({})),
  read("permissionProfile/list", ({ home }) => ({ cwd: home })),
  read("windowsSandbox/readiness", () => undefined),
  read("externalAgentConfig/detect", ({ home }) => ({ cwds: [home], includeHome: true })),
  read("externalAgentConfig/import/readHistories", () => undefined),
  read("fs/readFile", ({ home }) => ({ path: join(home, "config.toml") })),
  read("fs/getMetadata", ({ home }) => ({ path: home })),
  read("fs/readDirectory", ({ home }) => ({ path: home })),
  read("fuzzyFileSearch", ({ home }) => ({ query: "config", roots: [home] })),
];

/** Runs a generated validator; a validator that throws (instead of answering) fails with its input. */
function check(label: string, validate: Validator<unknown>, value: unknown): void {
  let valid: boolean;
  try {
    valid = validate(value);
  } catch (error) {
    throw new Error(`${label} validator threw ${String(error)}\nvalue: ${JSON.stringify(value)}`, { cause: error });
  }
  expect(valid, `${label} failed its validator: ${JSON.stringify(validate.errors)}\nvalue: ${JSON.stringify(value)}`).toBe(true);
}

/** `reply` must be a result (not an error) that passes the method's generated result validator. */
function expectValidResult(method: ClientRequestMethod, reply: JsonRpcReply): void {
  expect(reply.error, `${method} answered with an error: ${JSON.stringify(reply.error)}`).toBeUndefined();
  expect(reply, `${method} reply has no result: ${JSON.stringify(reply)}`).toHaveProperty("result");
  check(`${method} result`, clientRequestResults[method], reply.result);
}

describe(`real codex app-server ${CODEX_VERSION} (stdio, offline)`, () => {
  let context: Context | undefined;
  let server: AppServerProcess | undefined;
  let initializeReply: JsonRpcReply | undefined;
  const checked: ClientRequestMethod[] = [];
  const checkedNotifications = new Set<string>();

  beforeAll(async () => {
    expect(PINNED_CODEX_VERSION).toBe(CODEX_VERSION);

    const home = await mkdtemp(join(tmpdir(), "codex-rpc-real-server-"));
    context = { home };
    const port = await findUnusedLoopbackPort();
    await writeFile(
      join(home, "config.toml"),
      [
        `model = "mock-model"`,
        `model_provider = "mock"`,
        ``,
        `[model_providers.mock]`,
        `name = "mock"`,
        `base_url = "http://127.0.0.1:${port}/v1"`,
        `wire_api = "responses"`,
        `request_max_retries = 0`,
        `stream_max_retries = 0`,
        `supports_websockets = false`,
        ``,
      ].join("\n"),
    );

    server = new AppServerProcess({
      codexBinary: pinnedCodexBinary(),
      cwd: home,
      // The whole environment: no OPENAI_API_KEY, no CODEX_* from the caller, no real HOME.
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, CODEX_HOME: home, NO_COLOR: "1" },
      requestTimeoutMs: 15_000,
    });
    initializeReply = await server.request("initialize", {
      clientInfo: { name: "codex_rpc_protocol_test", title: "codex-rpc protocol test", version: "0.0.0" },
      capabilities: { experimentalApi: true },
    });
    server.notify("initialized");
  });

  afterAll(async () => {
    if (checked.length > 0) {
      console.log(
        `real-server: checked ${checked.length} result types against codex ${CODEX_VERSION}: ${checked.join(", ")}` +
          (checkedNotifications.size > 0 ? `; notifications: ${[...checkedNotifications].join(", ")}` : ""),
      );
    }
    const running = server;
    server = undefined;
    if (running !== undefined) await running.close(3_000);
    if (context !== undefined) await rm(context.home, { recursive: true, force: true });
    if (running !== undefined) {
      // The launcher waits for the native binary before it exits, so this covers both. (The
      // process group is not checked: codex leaves short-lived `git` zombies, reparented to
      // init, in it.)
      expect(() => process.kill(running.pid, 0), "codex app-server is still running").toThrow();
    }
  });

  function started(): { server: AppServerProcess; context: Context } {
    if (server === undefined || context === undefined) throw new Error("codex app-server did not start");
    return { server, context };
  }

  it("initialize answers with a valid InitializeResponse from the pinned version", () => {
    if (initializeReply === undefined) throw new Error("no initialize reply");
    expectValidResult("initialize", initializeReply);
    expect((initializeReply.result as { userAgent?: unknown }).userAgent).toContain(`/${CODEX_VERSION} `);
    checked.push("initialize");
  });

  it.each(READS.map((c) => [c.method, c] as const))("%s result passes its validator", async (method, readCase) => {
    const { server: running, context: ctx } = started();
    const reply = await readCase.send(running, ctx);
    expectValidResult(method, reply);
    checked.push(method);
  });

  it("fs/readFile really read the temporary config.toml", async () => {
    const { server: running, context: ctx } = started();
    const reply = await running.request("fs/readFile", { path: join(ctx.home, "config.toml") });
    expectValidResult("fs/readFile", reply);
    const { dataBase64 } = reply.result as ClientRequestMap["fs/readFile"]["result"];
    expect(Buffer.from(dataBase64, "base64").toString("utf8")).toContain(`model_provider = "mock"`);
  });

  it("validators can fail: a wrong shape is rejected with errors", async () => {
    const threadList = clientRequestResults["thread/list"];
    expect(threadList({})).toBe(false);
    expect(threadList.errors?.length ?? 0).toBeGreaterThan(0);

    // A real reply, broken in one place, must fail too.
    const { server: running } = started();
    const reply = await running.request("thread/list", {});
    expectValidResult("thread/list", reply);
    expect(threadList({ ...(reply.result as object), data: "not an array" })).toBe(false);
    expect(JSON.stringify(threadList.errors)).toContain("/data");
  });

  it("every notification received so far passes its validator", () => {
    const { server: running } = started();
    expect(running.badLines, "stdout lines that are not protocol messages").toEqual([]);
    for (const { method, params } of running.notifications) {
      expect(method in serverNotificationParams, `unknown notification ${method}`).toBe(true);
      check(`${method} notification params`, serverNotificationParams[method as keyof typeof serverNotificationParams], params);
      checkedNotifications.add(method);
    }
  });
});
