/**
 * The fields the client itself reads from a notification to route it and fold it into a turn.
 * A server of another version, a bug or a proxy can send a known method without them; such a
 * message is still delivered on `notifications()` but kept out of turns, and reported once. This
 * is not schema validation (that is `validate`): it checks only what the client would trip on.
 */

type Check = (params: Record<string, unknown>) => string | undefined;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function stringAt(record: Record<string, unknown>, key: string, path: string): string | undefined {
  return typeof record[key] === "string" ? undefined : `${path}.${key} is ${describe(record[key])}, not a string`;
}

function recordAt(record: Record<string, unknown>, key: string, path: string, inner?: Check): string | undefined {
  const value = record[key];
  if (!isRecord(value)) return `${path}.${key} is ${describe(value)}, not an object`;
  return inner?.(value);
}

function describe(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  return Array.isArray(value) ? "an array" : `a ${typeof value}`;
}

const item: Check = (params) => recordAt(params, "item", "params", (value) => stringAt(value, "id", "params.item") ?? stringAt(value, "type", "params.item"));

const delta: Check = (params) => stringAt(params, "itemId", "params") ?? stringAt(params, "delta", "params");

const CHECKS: Readonly<Record<string, Check>> = {
  "serverRequest/resolved": (params) =>
    typeof params.requestId === "string" || typeof params.requestId === "number"
      ? undefined
      : `params.requestId is ${describe(params.requestId)}, not a string or number`,
  "thread/status/changed": (params) => recordAt(params, "status", "params", (status) => stringAt(status, "type", "params.status")),
  "item/started": item,
  "item/completed": item,
  "item/agentMessage/delta": delta,
  "item/commandExecution/outputDelta": delta,
  "turn/completed": (params) =>
    recordAt(params, "turn", "params", (turn) => {
      const problem = stringAt(turn, "id", "params.turn") ?? stringAt(turn, "status", "params.turn");
      if (problem) return problem;
      // `items` is read when present; missing is tolerated (the fold has them), the wrong type is not.
      return turn.items === undefined || Array.isArray(turn.items) ? undefined : `params.turn.items is ${describe(turn.items)}, not an array`;
    }),
};

/** Why the client cannot use a notification's params, or undefined when it can. */
export type ShapeCheck = (params: unknown) => string | undefined;

/** The check for one method's params, or undefined for a method whose params the client never reads. */
export function shapeCheckOf(method: string): ShapeCheck | undefined {
  const check = Object.hasOwn(CHECKS, method) ? CHECKS[method] : undefined;
  if (!check) return undefined;
  return (params) => (isRecord(params) ? check(params) : `params is ${describe(params)}, not an object`);
}
