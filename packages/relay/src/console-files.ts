// The web console's static files, served by the relay next to its WebSocket (`--open`, option
// `consoleDir`). Nothing here holds the token: the page gets it in the URL's fragment
// (`#token=…`), which browsers never send to a server, so it is in no request, log or Referer.
import { readFile, realpath } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { requestUrl } from "./upgrade-gate.js";

/** Where the relay package keeps the built console (`console/`, built with the package). */
export const BUNDLED_CONSOLE_DIR = fileURLToPath(new URL("../console/", import.meta.url));

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
};

/**
 * Answers a GET for one of the console's files (`/` is `index.html`); 404 for anything else,
 * including paths that would leave the folder. The page may only talk to its own origin.
 */
export async function serveConsoleFile(request: IncomingMessage, response: ServerResponse, dir: string): Promise<void> {
  const pathname = request.method === "GET" || request.method === "HEAD" ? requestUrl(request)?.pathname : undefined;
  const decoded = pathname === undefined ? undefined : decodePath(pathname === "/" ? "/index.html" : pathname);
  const relative = decoded === undefined ? undefined : normalize(decoded).replace(/^[/\\]+/, "");
  const type = relative === undefined ? undefined : TYPES[extname(relative)];
  if (relative === undefined || type === undefined || relative.split(sep).includes("..")) {
    response.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    return;
  }
  let body: Buffer;
  try {
    // A symlink in the folder must not lead out of it.
    const [root, file] = await Promise.all([realpath(dir), realpath(join(dir, relative))]);
    if (!file.startsWith(root.endsWith(sep) ? root : `${root}${sep}`)) throw new Error("outside the console folder");
    body = await readFile(file);
  } catch {
    response.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    return;
  }
  response
    .writeHead(200, {
      "content-type": type,
      "cache-control": "no-store",
      // Its own scripts, styles and connections only; never framed; no Referer anywhere.
      "content-security-policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
      "referrer-policy": "no-referrer",
      "x-content-type-options": "nosniff",
    })
    .end(request.method === "HEAD" ? undefined : body);
}

/** The path with its %-escapes decoded, or undefined when they are malformed (`%E0`). */
function decodePath(pathname: string): string | undefined {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
}
