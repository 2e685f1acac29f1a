import { CodexRpcError } from "@codex-rpc/core";
import { redactSecrets } from "@codex-rpc/core/transport";

/** A WebSocket connection could not be opened. `code` says why: CONNECT_FAILED or UNAUTHORIZED. */
export class WebSocketConnectError extends CodexRpcError {
  override name = "WebSocketConnectError";
  constructor(
    code: "CONNECT_FAILED" | "UNAUTHORIZED",
    message: string,
    /** Where it tried to connect (secrets redacted). */
    readonly url: string,
    /**
     * The HTTP status of the refused upgrade, when the runtime says it (Node 22's WebSocket and browsers
     * do not); through @codex-rpc/relay in a browser, 403 when its discovery document refuses the origin.
     */
    readonly status: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/** Query parameters whose values are credentials: `token`, `access_token`, `key`, `apiKey`, `sig` … */
const SECRET_PARAM = /(?:token|key|secret|password|passwd|pwd|auth|signature|sig|credentials?)$/i;

/**
 * A URL fit for an error: no `user:password@`, credential-like query values replaced. One that
 * does not parse is redacted as text. A URL with nothing to hide is returned as given.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return redactSecrets(url);
  }
  let changed = false;
  if (parsed.username !== "" || parsed.password !== "") {
    parsed.username = "";
    parsed.password = "";
    changed = true;
  }
  if (parsed.search !== "") {
    const params = parsed.search.slice(1).split("&");
    const redacted = params.map((param) => {
      const name = param.split("=", 1)[0]!;
      return param.includes("=") && SECRET_PARAM.test(safeDecode(name)) ? `${name}=[REDACTED]` : param;
    });
    if (redacted.some((param, index) => param !== params[index])) {
      parsed.search = `?${redacted.join("&")}`;
      changed = true;
    }
  }
  return redactSecrets(changed ? parsed.href : url);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
