// Compiled by types.test.ts under moduleResolution nodenext and bundler: every line here must
// type-check, and every @ts-expect-error must meet an error, or the test fails.
import type {
  AskForApproval,
  ClientNotificationMap,
  ClientRequest,
  ClientRequestMap,
  ClientRequestMethod,
  ServerNotification,
  ServerNotificationMap,
  ServerNotificationMethod,
  ServerRequest,
  ServerRequestMap,
  ServerRequestMethod,
  ThreadItem,
  ThreadStartParams,
  ThreadStartResponse,
  TurnStatus,
} from "@codex-rpc/protocol";
import { type CLIENT_REQUEST_METHODS, PROTOCOL_VERSION, type SERVER_NOTIFICATION_METHODS } from "@codex-rpc/protocol";
import type { ClientRequestMap as ExperimentalClientRequestMap } from "@codex-rpc/protocol/experimental";
import { loadValidators } from "@codex-rpc/protocol/validators";
import { serverNotificationParams } from "@codex-rpc/protocol/validators/incoming";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertTrue<T extends true>(): T | undefined {
  return undefined;
}

// Narrowing ServerNotification on `method` gives typed params.
export function describeNotification(notification: ServerNotification): string {
  switch (notification.method) {
    case "item/agentMessage/delta":
      return notification.params.delta.toUpperCase();
    case "turn/completed": {
      const status: TurnStatus = notification.params.turn.status;
      return status;
    }
    case "thread/started":
      return notification.params.thread.id;
    default:
      return notification.method;
  }
}

// ThreadItem narrows by `type`.
export function itemSummary(item: ThreadItem): string {
  if (item.type === "agentMessage") return item.text;
  if (item.type === "commandExecution") return item.command;
  // @ts-expect-error a command execution's field does not exist on the other items
  return item.command;
}

// Server requests narrow too, and their results are typed.
export function requestKind(request: ServerRequest): string {
  if (request.method === "item/commandExecution/requestApproval") return request.params.itemId;
  return request.method;
}
const decline: ServerRequestMap["item/commandExecution/requestApproval"]["result"] = { decision: "decline" };
// @ts-expect-error not a decision the server knows
const wrongDecision: ServerRequestMap["item/commandExecution/requestApproval"]["result"] = { decision: "maybe" };

// A wrong enum literal and a misspelled property are compile errors.
// @ts-expect-error "sometimes" is not an approval policy
const wrongPolicy: ThreadStartParams = { approvalPolicy: "sometimes" };
// @ts-expect-error `modle` is a typo of `model`
const typo: ThreadStartParams = { modle: "mock-model" };
const policy: AskForApproval = "untrusted";
const params: ThreadStartParams = { model: "mock-model", approvalPolicy: policy, cwd: null };

// The maps: params and result per method, keys equal to the runtime arrays, no result left unknown.
assertTrue<Equal<ClientRequestMap["thread/start"]["params"], ThreadStartParams>>();
assertTrue<Equal<ClientRequestMap["thread/start"]["result"], ThreadStartResponse>>();
assertTrue<Equal<ClientRequestMap["account/logout"]["params"], undefined>>();
assertTrue<Equal<(typeof CLIENT_REQUEST_METHODS)[number], ClientRequestMethod>>();
assertTrue<Equal<(typeof SERVER_NOTIFICATION_METHODS)[number], ServerNotificationMethod>>();
assertTrue<Equal<ClientRequest["method"], ClientRequestMethod>>();
assertTrue<Equal<ServerRequest["method"], ServerRequestMethod>>();
assertTrue<Equal<keyof ClientNotificationMap, "initialized">>();
type UnknownResults = {
  [M in ClientRequestMethod]: unknown extends ClientRequestMap[M]["result"] ? M : never;
}[ClientRequestMethod];
assertTrue<Equal<UnknownResults, never>>();
type UnknownParams = {
  [M in ServerNotificationMethod]: unknown extends ServerNotificationMap[M]["params"] ? M : never;
}[ServerNotificationMethod];
assertTrue<Equal<UnknownParams, never>>();

// The experimental surface has methods the stable one does not.
assertTrue<Equal<"memory/reset" extends keyof ExperimentalClientRequestMap ? true : false, true>>();
assertTrue<Equal<"memory/reset" extends ClientRequestMethod ? true : false, false>>();

// Validators narrow to the mapped types.
export async function readResult(value: unknown): Promise<string | undefined> {
  const { clientRequestValidators } = await loadValidators();
  const validate = clientRequestValidators["thread/start"].result;
  if (validate(value)) return value.thread.id;
  return validate.errors?.[0]?.message;
}
export function readDelta(value: unknown): string | undefined {
  return serverNotificationParams["item/agentMessage/delta"](value) ? value.delta : undefined;
}

export const used = [decline, wrongDecision, wrongPolicy, typo, params, PROTOCOL_VERSION satisfies "0.169.0"];
