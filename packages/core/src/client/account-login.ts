import { filter, type Subscription } from "rxjs";
import { ConnectionClosedError, ProtocolError, RequestAbortedError } from "../errors/errors.js";
import type { DefaultProtocolTypes, ParamsIn, ProtocolTypesShape } from "../rpc/protocol-types.js";
import { isRecord } from "../util/is-record.js";
import type { ApiHost } from "./api-host.js";

// The logins of `client.account` at work: loaded on demand (import()) by the first login, so a
// client that never logs in does not carry them.

/** `account/login/completed`'s params in the client's protocol. */
export type LoginCompletion<T extends ProtocolTypesShape = DefaultProtocolTypes> = ParamsIn<T["serverNotifications"], "account/login/completed">;

export interface LoginOptions {
  /**
   * Aborting it cancels the login (`account/login/cancel`); `completed` then resolves with the
   * server's `success: false` completion.
   */
  readonly signal?: AbortSignal;
}

/** A login that finishes in a browser: the URL or code to show the user, and its completion. */
export interface PendingLogin<T extends ProtocolTypesShape = DefaultProtocolTypes> {
  /** The server's id of this login attempt (what `account/login/cancel` takes). */
  readonly loginId: string;
  /**
   * Resolves with `account/login/completed` for this login: `success: true`, or `success: false`
   * with the server's `error` (cancelled, timed out, refused). Rejects only when the connection closes first.
   */
  readonly completed: Promise<LoginCompletion<T>>;
  /** Cancels the login (`account/login/cancel`): `"canceled"`, or `"notFound"` when it had already ended. */
  cancel(): Promise<string>;
}

/**
 * `account/login/start` for a login that completes later. The completion notification is
 * listened for before the request goes out (codex may send it at any time after), and matched by
 * `loginId` once the reply names it.
 */
export async function startLogin<T extends ProtocolTypesShape, F extends string>(
  host: ApiHost,
  params: object,
  options: LoginOptions,
  cancelLogin: (loginId: string) => Promise<string>,
  fields: readonly F[],
): Promise<PendingLogin<T> & Record<F, string>> {
  const { signal } = options;
  if (signal?.aborted) throw new RequestAbortedError("account/login/start", undefined, signal.reason);
  const early: LoginCompletion<T>[] = [];
  let loginId: string | undefined;
  let resolve!: (completion: LoginCompletion<T>) => void;
  let reject!: (error: unknown) => void;
  const completed = new Promise<LoginCompletion<T>>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A caller who never awaits `completed` must not see an unhandled rejection when the client closes.
  completed.catch(() => undefined);
  const subscription: Subscription = host
    .notifications("account/login/completed")
    .pipe(filter((completion) => isRecord(completion)))
    .subscribe({
      next: (completion) => {
        const id = (completion as { loginId?: unknown }).loginId;
        if (loginId === undefined) early.push(completion as LoginCompletion<T>);
        else if (id === loginId) finish(completion as LoginCompletion<T>);
      },
      error: (error: unknown) => finish(undefined, error),
      complete: () => void host.closed.then((info) => finish(undefined, new ConnectionClosedError(info, { method: "account/login/start" }))),
    });
  let drops: Subscription | undefined;
  const onAbort = () => void cancelLogin(loginId!).catch(() => undefined);
  const stop = () => {
    subscription.unsubscribe();
    drops?.unsubscribe();
    signal?.removeEventListener("abort", onAbort);
  };
  const finish = (completion: LoginCompletion<T> | undefined, error?: unknown) => {
    stop();
    if (completion) resolve(completion);
    else reject(error);
  };
  // A login lives on the connection that started it: when that one drops, its completion never comes.
  drops = host.state$
    .pipe(filter((state) => state === "reconnecting"))
    .subscribe(() => finish(undefined, new ConnectionClosedError({ reason: "eof" }, { method: "account/login/start" })));
  let result: unknown;
  try {
    result = await host.request("account/login/start", params, signal ? { signal } : undefined);
  } catch (error) {
    stop();
    throw error;
  }
  if (!isRecord(result) || typeof result.loginId !== "string") {
    stop();
    throw new ProtocolError("account/login/start", "the reply has no `loginId`");
  }
  loginId = result.loginId;
  const first = early.find((completion) => (completion as { loginId?: unknown }).loginId === loginId);
  if (first) finish(first);
  else if (signal) {
    signal.addEventListener("abort", onAbort, { once: true });
    if (signal.aborted) onAbort();
  }
  const id = loginId;
  const login: Record<string, unknown> = { loginId: id, completed, cancel: () => cancelLogin(id) };
  // The reply's strings the login hands on (`authUrl`; `verificationUrl`, `userCode`): "" when missing.
  for (const field of fields) login[field] = typeof result[field] === "string" ? result[field] : "";
  return login as PendingLogin<T> & Record<F, string>;
}

/** The error of a request that carried `secret`, with every occurrence of it replaced (a server may echo what it got). */
export function withoutSecret(error: unknown, secret: string): unknown {
  if (!(error instanceof Error) || secret.length === 0) return error;
  const scrub = (text: string) => text.split(secret).join("[REDACTED]");
  const target = error as unknown as Record<string, unknown>;
  for (const key of ["message", "rpcMessage", "stack"]) {
    if (typeof target[key] === "string") Object.defineProperty(error, key, { value: scrub(target[key] as string), writable: true, configurable: true });
  }
  if (isRecord(target.data) || typeof target.data === "string") {
    Object.defineProperty(error, "data", { value: JSON.parse(scrub(JSON.stringify(target.data))), writable: true, configurable: true });
  }
  return error;
}
