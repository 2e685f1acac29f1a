import { PROTOCOL_FLAVOR, PROTOCOL_VERSION, SERVER_NOTIFICATION_METHODS } from "@codex-rpc/protocol";
import type { CodexProtocol, ProtocolTypesShape, ProtocolValidatorsShape } from "../rpc/protocol-types.js";

/**
 * The client's default protocol: the stable surface of `@codex-rpc/protocol`, as `protocol` from
 * it, built from the parts the client reads (`serverNotificationMethods`) so that a bundle does not
 * carry the other method lists; the validators load on demand, as there.
 */
export const STABLE_PROTOCOL: CodexProtocol<ProtocolTypesShape> = Object.freeze({
  version: PROTOCOL_VERSION,
  flavor: PROTOCOL_FLAVOR,
  serverNotificationMethods: SERVER_NOTIFICATION_METHODS,
  loadValidators: (): Promise<ProtocolValidatorsShape> => import("@codex-rpc/protocol/validators").then((module) => module.loadValidators()),
});
