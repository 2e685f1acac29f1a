// The web console's setting for tests: a MockResponsesProvider (the scripted model), a CODEX_HOME
// pointing at it, and a relay that spawns the real codex 0.169.0 and serves the built console
// (packages/relay/console, made by the relay's build). It can be restarted on the same port with
// the same token and home, as a relay restarted by its user would be.
import { mkdir } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { type RelayHandle, startRelay } from "@codex-rpc/relay";
import { createCodexHome, type CodexHome, MockResponsesProvider, type ScriptedReply } from "@codex-rpc/testing";
import { pinnedCodexBinary, REPOSITORY_ROOT } from "./pinned-codex.js";

export const CONSOLE_DIR = join(REPOSITORY_ROOT, "packages", "relay", "console");

export class ConsoleRelay {
  #relay: RelayHandle;

  private constructor(
    readonly provider: MockResponsesProvider,
    readonly home: CodexHome,
    readonly workspace: string,
    relay: RelayHandle,
  ) {
    this.#relay = relay;
  }

  static async start(script: readonly ScriptedReply[]): Promise<ConsoleRelay> {
    const provider = await MockResponsesProvider.start({ script });
    const home = await createCodexHome({ provider });
    const workspace = join(home.dir, "workspace");
    await mkdir(workspace);
    const relay = await startRelay(ConsoleRelay.#options(home, workspace));
    return new ConsoleRelay(provider, home, workspace, relay);
  }

  static #options(home: CodexHome, workspace: string, port?: number, token?: string): Parameters<typeof startRelay>[0] {
    return {
      upstream: { spawn: { codexPath: pinnedCodexBinary(), cwd: workspace, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...home.env } } },
      consoleDir: CONSOLE_DIR,
      ...(port === undefined ? {} : { port }),
      ...(token === undefined ? {} : { token }),
    };
  }

  get relay(): RelayHandle {
    return this.#relay;
  }

  /** The console's address, the token in the fragment (what `codex-rpc-relay --open` opens). */
  consoleUrl(token = this.#relay.token): string {
    return `http://127.0.0.1:${this.#relay.port}/#token=${token}`;
  }

  /** The console's address with a one-time code in the fragment (what `codex-rpc-relay --open` opens). */
  consoleCodeUrl(code = this.#relay.createLoginCode()): string {
    return `http://127.0.0.1:${this.#relay.port}/#code=${code}`;
  }

  /** Stops the relay (and its app-server); `startAgain()` brings it back on the same port, token and home. */
  async stop(): Promise<void> {
    await this.#relay.close();
  }

  async startAgain(): Promise<void> {
    const { port, token } = this.#relay;
    this.#relay = await startRelay(ConsoleRelay.#options(this.home, this.workspace, port, token));
  }

  async close(): Promise<void> {
    await this.#relay.close();
    await this.provider.close();
    await this.home.cleanup();
  }
}

/** The console's files from another origin (another port): a page the relay must not let in. */
export async function serveForeignCopy(): Promise<{ readonly origin: string; close(): Promise<void> }> {
  const { readFile } = await import("node:fs/promises");
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0]?.split("#")[0] ?? "/";
    const file = path === "/" ? "index.html" : path.slice(1);
    readFile(join(CONSOLE_DIR, file)).then(
      (body) =>
        response.writeHead(200, { "content-type": file.endsWith(".js") ? "text/javascript" : file.endsWith(".css") ? "text/css" : "text/html" }).end(body),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
