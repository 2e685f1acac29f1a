import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tokenMatches } from "./token.js";

/** Where a page exchanges a one-time code for the launch token (POST, same origin only). */
export const LOGIN_CODE_PATH = "/.well-known/codex-rpc-relay/code";
/** How long a code is valid (60 s). */
export const LOGIN_CODE_TTL_MS = 60_000;
const MAX_BODY_BYTES = 1024;
/** Logged when a used code comes back (see exchangeLoginCode): the CLI prints it even without --verbose. */
export const LOGIN_CODE_REUSED_WARNING =
  "warning: a one-time login code was presented again after it had been exchanged: another local process may have read it from the browser opener's argv and taken the token first; stop the relay (the token is no longer secret) and start it again with --console, pasting the printed console URL";

/**
 * One-time codes for opening the console (`--open`): the URL handed to the browser opener (and so
 * to a process's argv, readable by every local user, and to the browser's history) carries a code
 * instead of the token. The page posts it back once to {@link LOGIN_CODE_PATH} and gets the token;
 * the code is then dead, and dies anyway after {@link LOGIN_CODE_TTL_MS}.
 */
export class LoginCodes {
  readonly #codes = new Map<string, number>();
  /** Codes already exchanged, until they would have expired: one presented again means someone else may have been first. */
  readonly #used = new Map<string, number>();

  constructor(private readonly ttlMs = LOGIN_CODE_TTL_MS) {}

  /** A fresh code (32 random bytes, base64url), valid once for the TTL. */
  create(now = Date.now()): string {
    const code = randomBytes(32).toString("base64url");
    this.#codes.set(code, now + this.ttlMs);
    return code;
  }

  /** Whether `code` is a live code; it is used up either way. */
  redeem(code: string, now = Date.now()): boolean {
    let found: string | undefined;
    for (const [live, expires] of this.#codes) {
      if (expires <= now) this.#codes.delete(live);
      else if (tokenMatches(code, live)) found = live;
    }
    if (found === undefined) return false;
    this.#used.set(found, this.#codes.get(found)!);
    this.#codes.delete(found);
    return true;
  }

  /** Whether `code` was exchanged already (within its TTL). */
  wasUsed(code: string, now = Date.now()): boolean {
    let found = false;
    for (const [used, expires] of this.#used) {
      if (expires <= now) this.#used.delete(used);
      else if (tokenMatches(code, used)) found = true;
    }
    return found;
  }
}

/**
 * Answers `POST {LOGIN_CODE_PATH}` with `{ "code": "…" }`: 200 `{ "token": "…" }` for a live code
 * from one of the relay's own origins (the console it serves), 403 otherwise.
 */
export async function exchangeLoginCode(
  request: IncomingMessage,
  response: ServerResponse,
  codes: LoginCodes,
  ownOrigins: ReadonlySet<string>,
  token: string,
  log: (line: string) => void,
): Promise<void> {
  const origin = request.headers.origin;
  const refuse = (status: number, why: string) =>
    void response.writeHead(status, { "content-type": "text/plain", "cache-control": "no-store" }).end(`${why}\n`);
  if (request.method !== "POST") return refuse(405, "POST a code");
  if (origin === undefined || !ownOrigins.has(origin)) return refuse(403, "only the relay's own pages may exchange a code");
  let body = "";
  try {
    for await (const chunk of request) {
      body += String(chunk);
      if (body.length > MAX_BODY_BYTES) return refuse(413, "too large");
    }
  } catch {
    // The client went away before its body arrived ("aborted"): nothing to answer. Unhandled, this
    // rejection would end the relay's process, and any local process can send such a request.
    return void response.destroy();
  }
  let code: unknown;
  try {
    code = (JSON.parse(body) as { code?: unknown }).code;
  } catch {
    return refuse(400, 'expected {"code": "…"}');
  }
  if (typeof code !== "string" || !codes.redeem(code)) {
    // Someone exchanged it first: any local process can read the code in the browser opener's argv and send a forged Origin.
    if (typeof code === "string" && codes.wasUsed(code)) log(LOGIN_CODE_REUSED_WARNING);
    return refuse(403, "unknown, used or expired code");
  }
  response.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" }).end(`${JSON.stringify({ token })}\n`);
}
