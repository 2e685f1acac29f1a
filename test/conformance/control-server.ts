// The orchestrator's loopback control endpoint, for what a case script cannot do itself:
//   POST /app-servers          {scope, listen: "ws" | "unix"} → {pid, url} | {pid, socketPath}
//   POST /model-requests/wait  {scope, count}                 → {count} once the scope's model got that many
// Answers are JSON; failures are {error} with status 500.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { startListeningAppServer } from "./listening-app-server.js";
import type { PathFixture } from "./path-fixture.js";

export interface ControlServer {
  readonly url: string;
  close(): Promise<void>;
}

export async function startControlServer(fixture: PathFixture): Promise<ControlServer> {
  const server = createServer((request, response) => {
    void answer(fixture, request)
      .then((body) => send(response, 200, body))
      .catch((error: unknown) => send(response, 500, { error: error instanceof Error ? error.message : String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function answer(fixture: PathFixture, request: IncomingMessage): Promise<unknown> {
  const body = JSON.parse((await readBody(request)) || "{}") as { scope?: string; listen?: string; count?: number };
  const scope = fixture.scope(String(body.scope));
  switch (`${request.method} ${request.url}`) {
    case "POST /app-servers": {
      if (body.listen !== "ws" && body.listen !== "unix") throw new Error(`listen must be "ws" or "unix", not ${body.listen}`);
      const server = await startListeningAppServer({
        codexPath: fixture.codexPath,
        env: scope.env,
        cwd: fixture.workspace,
        listen: body.listen,
        socketPath: join(scope.home.dir, `app-server-${fixture.listeningServers.length}.sock`),
      });
      fixture.listeningServers.push(server);
      return server.url ? { pid: server.pid, url: server.url } : { pid: server.pid, socketPath: server.socketPath };
    }
    case "POST /model-requests/wait": {
      const requests = await scope.provider.waitForRequests(body.count ?? 1, { timeoutMs: 15_000 });
      return { count: requests.length };
    }
    default:
      throw new Error(`unknown control route ${request.method} ${request.url}`);
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (text += chunk));
    request.once("end", () => resolve(text));
    request.once("error", reject);
  });
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}
