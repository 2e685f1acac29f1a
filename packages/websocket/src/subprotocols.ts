import { InvalidOptionError } from "@codex-rpc/core";
import { RELAY_SUBPROTOCOL } from "./relay-protocol.js";

/** RFC 6455 §4.1: a subprotocol is an RFC 2616 token — visible ASCII except separators. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * The `protocols` option as a list, checked the way a browser's WebSocket constructor checks it
 * (which would otherwise throw a SyntaxError quoting the value): each a non-empty RFC 6455 token,
 * no duplicates. The error never names the value: a relay token travels in it.
 *
 * @throws InvalidOptionError `protocols`
 */
export function checkProtocols(protocols: string | readonly string[] | undefined): readonly string[] | undefined {
  if (protocols === undefined) return undefined;
  const list: readonly unknown[] = typeof protocols === "string" ? [protocols] : Array.isArray(protocols) ? protocols : [protocols];
  for (const [index, protocol] of list.entries()) {
    if (typeof protocol !== "string" || !TOKEN.test(protocol)) {
      throw new InvalidOptionError(
        "protocols",
        `entry ${index} is not a WebSocket subprotocol: each must be a non-empty string of letters, digits and !#$%&'*+-.^_\`|~ (RFC 6455)`,
      );
    }
    if (list.indexOf(protocol) !== index) throw new InvalidOptionError("protocols", `entry ${index} repeats an earlier one`);
  }
  return list as readonly string[];
}

/**
 * `text` with every subprotocol replaced by `[REDACTED]`: a runtime's message may quote them. The
 * relay's own (`codex-rpc.v1`) is public and stays, as the secret redactor leaves it.
 */
export function redactProtocols(text: string, protocols: readonly string[] | undefined): string {
  let redacted = text;
  for (const protocol of protocols ?? []) if (protocol.length >= 8 && protocol !== RELAY_SUBPROTOCOL) redacted = redacted.split(protocol).join("[REDACTED]");
  return redacted;
}
