// Every message the server may send the client, read from the vendored JSON Schemas of the pinned
// codex version (the ServerNotification and ServerRequest unions) and checked against the generated
// @codex-rpc/protocol method lists: per method, a valid params template (valid-value.mjs) that the
// method's generated validator accepts, and the fields a mutation can break.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { SERVER_NOTIFICATION_METHODS, SERVER_REQUEST_METHODS } from "@codex-rpc/protocol";
import { loadValidators } from "@codex-rpc/protocol/validators";
import { validValue } from "./valid-value.mjs";

/** The vendored schemas the fuzzer derives its messages from. */
export const SCHEMA_DIR = fileURLToPath(new URL("../../../../schemas/codex/0.169.0/stable/", import.meta.url));

/** Client requests whose replies a fuzz session gives from the schema, and the response schema of each. */
const CLIENT_RESULTS = [
  ["turn/start", "v2/TurnStartResponse.json"],
  ["thread/start", "v2/ThreadStartResponse.json"],
  ["thread/read", "v2/ThreadReadResponse.json"],
];

/** The most variant choices tried per method before giving up on a valid template. */
const SEARCH_LIMIT = 512;

/**
 * Reads the unions, builds one valid template per method and checks each with its validator.
 * Throws when the schemas and the generated method lists disagree, or a template does not validate.
 */
export async function loadCatalogue() {
  const validators = await loadValidators();
  const entries = [
    ...readUnion("ServerNotification.json", "notification", validators.serverNotificationValidators),
    ...readUnion("ServerRequest.json", "request", validators.serverRequestValidators),
  ];
  expectSameMethods("notification", entries, SERVER_NOTIFICATION_METHODS);
  expectSameMethods("request", entries, SERVER_REQUEST_METHODS);
  // Valid replies to the client requests a fuzz session answers itself (the fake's own may lag the schema).
  const clientResults = new Map(CLIENT_RESULTS.map(([method, file]) => [method, readResult(method, file, validators.clientRequestValidators[method].result)]));
  return {
    entries,
    byMethod: new Map(entries.map((entry) => [entry.method, entry])),
    validators,
    turnStartResponse: clientResults.get("turn/start"),
    clientResults,
  };
}

function readUnion(file, kind, table) {
  const bundle = readJson(file);
  return bundle.oneOf.map((branch) => {
    const method = branch.properties.method.enum[0];
    const validate = table[method]?.params;
    if (!validate) throw new Error(`${file}: no generated params validator for ${kind} ${method}`);
    const entry = { kind, method, ...template(`${kind} ${method}`, branch.properties.params, bundle.definitions, validate), validate };
    if (kind !== "request") return entry;
    // What a handler answers: the method's response schema (XParams → XResponse), checked by its validator.
    const responseFile = `${branch.properties.params.$ref.replace(/^#\/definitions\//, "").replace(/Params$/, "")}Response.json`;
    return { ...entry, result: readResult(method, responseFile, table[method].result) };
  });
}

function readResult(method, file, validate) {
  const schema = readJson(file);
  return { kind: "result", method, ...template(file, schema, schema.definitions ?? {}, validate), validate };
}

/** The first generated value the validator accepts, searching union variants when needed. */
function template(what, schema, definitions, validate) {
  const tried = new Set();
  const queue = [new Map()];
  while (queue.length > 0 && tried.size < SEARCH_LIMIT) {
    const choices = queue.shift();
    const key = JSON.stringify([...choices]);
    if (tried.has(key)) continue;
    tried.add(key);
    const { value, fields, unions } = validValue(schema, definitions, choices);
    if (validate(value)) return { params: value, fields: dedupeFields(fields) };
    for (const union of unions) {
      for (let index = 0; index < union.count; index++) {
        if (choices.get(union.key) === index) continue;
        queue.push(new Map([...choices, [union.key, index]]));
      }
    }
  }
  throw new Error(`${what}: no valid template found in ${tried.size} variant choices`);
}

function dedupeFields(fields) {
  const seen = new Map();
  for (const field of fields) seen.set(field.path.join("\u0000"), field);
  return [...seen.values()];
}

function expectSameMethods(kind, entries, generated) {
  const fromSchema = entries
    .filter((entry) => entry.kind === kind)
    .map((entry) => entry.method)
    .sort();
  const fromProtocol = [...generated].sort();
  if (JSON.stringify(fromSchema) !== JSON.stringify(fromProtocol)) {
    throw new Error(`the ${kind} union in ${SCHEMA_DIR} and @codex-rpc/protocol disagree: ${JSON.stringify({ fromSchema, fromProtocol })}`);
  }
}

function readJson(file) {
  return JSON.parse(readFileSync(SCHEMA_DIR + file, "utf8"));
}
