import { existsSync } from "node:fs";
import { CodegenError } from "../util/codegen-error.js";
import { isSchemaObject } from "./json-schema.js";
import { parseJsonFile } from "./schema-bundle.js";

/**
 * Reads a `--result-map` file: a JSON object of method → result definition name,
 * e.g. `{ "account/gatewayOAuth/read": "GatewayOAuthReadResponse" }`.
 */
export function readResultMapFile(file: string): Record<string, string> {
  if (!existsSync(file)) throw new CodegenError("RESULT_MAP_INVALID", `result map not found: ${file}`, { file });
  const value = parseJsonFile(file);
  if (!isSchemaObject(value)) {
    throw new CodegenError("RESULT_MAP_INVALID", 'a result map is a JSON object: { "method": "DefinitionName" }', { file, pointer: "#" });
  }
  const map: Record<string, string> = {};
  for (const [method, name] of Object.entries(value)) {
    if (typeof name !== "string" || !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name)) {
      throw new CodegenError("RESULT_MAP_INVALID", `the result of "${method}" must be a definition name, not ${JSON.stringify(name)}`, {
        file,
        pointer: `#/${method.replace(/~/g, "~0").replace(/\//g, "~1")}`,
      });
    }
    map[method] = name;
  }
  return map;
}
