import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { CodegenError } from "../util/codegen-error.js";
import { ANNOTATION_KEYWORDS, isSchemaObject, pointerSegment, type JsonSchema, type JsonSchemaObject } from "./json-schema.js";

/** The single file of each export that holds every definition (the per-type files repeat it). */
export const BUNDLE_FILE = "codex_app_server_protocol.schemas.json";

export type SchemaFlavor = "stable" | "experimental";

/** One schema definition, under the TypeScript name it is emitted as. */
export interface SchemaDefinition {
  /** The `definitions` key: also the TypeScript name. */
  readonly name: string;
  /** Where it lives in the bundle, e.g. `#/definitions/v2/Thread`. */
  readonly pointer: string;
  readonly schema: JsonSchema;
  /**
   * `undefined` for the shared flat namespace; `"v1"` for a root-level (v1) definition whose name
   * v2 also defines differently: it is emitted as `v1.Name` so that neither shadows the other.
   */
  readonly namespace: "v1" | undefined;
}

export interface SchemaBundle {
  readonly flavor: SchemaFlavor;
  readonly file: string;
  readonly root: JsonSchemaObject;
  /** Every definition that is emitted, sorted by name (v1-namespaced ones last). */
  readonly definitions: readonly SchemaDefinition[];
  /** Root-level definitions that v2 defines identically, merged into the v2 one. */
  readonly mergedDuplicates: readonly string[];
  /** Resolves a `$ref` found at `at`, or throws `UNRESOLVED_REF` naming both. */
  resolve(ref: string, at: string): SchemaDefinition;
  /** The definition a root-level name refers to (`ClientRequest`, `ServerNotification`, …). */
  rootDefinition(name: string): SchemaDefinition;
}

export interface SchemaDirectory {
  readonly dir: string;
  readonly codexVersion: string;
  readonly bundles: readonly SchemaBundle[];
}

/**
 * Reads a vendored schema directory: `manifest.json` (for the codex version) and the bundle of
 * each flavor present (`stable/` is required, `experimental/` optional).
 */
export function readSchemaDirectory(dir: string): SchemaDirectory {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new CodegenError("SCHEMA_DIR_MISSING", `schema directory not found: ${dir}`, { file: dir });
  }
  const manifestFile = join(dir, "manifest.json");
  if (!existsSync(manifestFile)) {
    throw new CodegenError(
      "SCHEMA_FILE_MISSING",
      'manifest.json is missing: the schema directory must say which codex version it came from ({ "codexVersion": "0.169.0" }, beside stable/ and experimental/); or generate straight from codex with --codex PATH or --codex-version X',
      { file: manifestFile },
    );
  }
  const manifest = parseJsonFile(manifestFile);
  const codexVersion = isSchemaObject(manifest) ? manifest.codexVersion : undefined;
  if (typeof codexVersion !== "string" || codexVersion === "") {
    throw new CodegenError("UNSUPPORTED_SCHEMA", "manifest.json has no codexVersion string", {
      file: manifestFile,
      pointer: "#/codexVersion",
    });
  }
  const bundles: SchemaBundle[] = [];
  for (const flavor of ["stable", "experimental"] as const) {
    const file = join(dir, flavor, BUNDLE_FILE);
    if (!existsSync(file)) {
      if (flavor === "stable") {
        throw new CodegenError("SCHEMA_FILE_MISSING", `the stable export has no ${BUNDLE_FILE}`, { file });
      }
      continue;
    }
    bundles.push(readSchemaBundle(file, flavor));
  }
  return { dir, codexVersion, bundles };
}

/** Schemas as a consumer may have them: the codex version is known only when something records it. */
export interface SchemaFolder {
  readonly dir: string;
  readonly codexVersion: string | undefined;
  readonly bundles: readonly SchemaBundle[];
}

/**
 * Reads what `diff` compares: a vendored schema directory (with `manifest.json`, as
 * `readSchemaDirectory`), codex's own `app-server generate-json-schema --out DIR` folder (the bundle
 * at its top: read as the stable flavor, version unknown), or a folder holding such exports as
 * `stable/` and `experimental/` without a manifest (version unknown).
 */
export function readSchemaFolder(dir: string): SchemaFolder {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new CodegenError("SCHEMA_DIR_MISSING", `schema directory not found: ${dir}`, { file: dir });
  }
  if (existsSync(join(dir, "manifest.json"))) return readSchemaDirectory(dir);
  const single = join(dir, BUNDLE_FILE);
  if (existsSync(single)) return { dir, codexVersion: undefined, bundles: [readSchemaBundle(single, "stable")] };
  const bundles: SchemaBundle[] = [];
  for (const flavor of ["stable", "experimental"] as const) {
    const file = join(dir, flavor, BUNDLE_FILE);
    if (existsSync(file)) bundles.push(readSchemaBundle(file, flavor));
  }
  if (bundles.length === 0) {
    throw new CodegenError(
      "SCHEMA_FILE_MISSING",
      `${dir} holds no schemas: give a folder written by \`codex app-server generate-json-schema --out DIR\` (${BUNDLE_FILE} in it, or in its stable/ and experimental/), a folder of codex-rpc-gen output, a codex binary, or codex@VERSION`,
      { file: dir },
    );
  }
  return { dir, codexVersion: undefined, bundles };
}

export function readSchemaBundle(file: string, flavor: SchemaFlavor): SchemaBundle {
  const root = parseJsonFile(file);
  if (!isSchemaObject(root) || !isSchemaObject(root.definitions)) {
    throw new CodegenError("UNSUPPORTED_SCHEMA", "a schema bundle must be an object with a `definitions` object", {
      file,
      pointer: "#/definitions",
    });
  }
  return indexBundle(file, flavor, root);
}

function indexBundle(file: string, flavor: SchemaFlavor, root: JsonSchemaObject): SchemaBundle {
  const rootDefs = root.definitions as Record<string, JsonSchema>;
  const v2Raw = rootDefs.v2;
  const v2Defs: Record<string, JsonSchema> = isNamespace(v2Raw) ? v2Raw : {};

  const byPointer = new Map<string, SchemaDefinition>();
  const emitted: SchemaDefinition[] = [];
  const mergedDuplicates: string[] = [];

  for (const [name, schema] of Object.entries(v2Defs)) {
    const def: SchemaDefinition = { name, pointer: `#/definitions/v2/${pointerSegment(name)}`, schema, namespace: undefined };
    checkName(name, def.pointer, file);
    byPointer.set(def.pointer, def);
    emitted.push(def);
  }
  for (const [name, schema] of Object.entries(rootDefs)) {
    if (name === "v2" && isNamespace(schema)) continue;
    const pointer = `#/definitions/${pointerSegment(name)}`;
    checkName(name, pointer, file);
    const twin = name in v2Defs ? byPointer.get(`#/definitions/v2/${pointerSegment(name)}`) : undefined;
    if (twin && sameShape(schema, twin.schema)) {
      // The rule for names both namespaces define: identical shapes are one type.
      byPointer.set(pointer, twin);
      mergedDuplicates.push(name);
      continue;
    }
    // Different shapes: v2 (the current API) keeps the bare name; the v1 one is emitted as v1.Name.
    const def: SchemaDefinition = { name, pointer, schema, namespace: twin ? "v1" : undefined };
    byPointer.set(pointer, def);
    emitted.push(def);
  }
  if ("JsonValue" in v2Defs || "JsonValue" in rootDefs) {
    throw new CodegenError("NAME_COLLISION", "the schema defines `JsonValue`, which the emitter reserves for schemas that accept any JSON value", {
      file,
      pointer: "JsonValue" in v2Defs ? "#/definitions/v2/JsonValue" : "#/definitions/JsonValue",
    });
  }
  emitted.sort((a, b) => compareNames(a.namespace ?? "", b.namespace ?? "") || compareNames(a.name, b.name));

  const resolve = (ref: string, at: string): SchemaDefinition => {
    const def = byPointer.get(ref);
    if (!def) {
      throw new CodegenError("UNRESOLVED_REF", `$ref "${ref}" points to no definition`, { file, pointer: at });
    }
    return def;
  };
  const rootDefinition = (name: string): SchemaDefinition => {
    const def = byPointer.get(`#/definitions/${pointerSegment(name)}`);
    if (!def) {
      throw new CodegenError("UNSUPPORTED_SCHEMA", `the bundle has no root definition \`${name}\``, {
        file,
        pointer: `#/definitions/${pointerSegment(name)}`,
      });
    }
    return def;
  };
  return { flavor, file, root, definitions: emitted, mergedDuplicates, resolve, rootDefinition };
}

/** `definitions.v2` is a namespace (a map of definitions), not a schema. */
function isNamespace(value: JsonSchema | undefined): value is Record<string, JsonSchema> {
  return isSchemaObject(value) && !("type" in value) && !("$ref" in value) && Object.values(value).every(isSchemaObject);
}

function checkName(name: string, pointer: string, file: string): void {
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name)) {
    throw new CodegenError("UNSUPPORTED_SCHEMA", `definition name "${name}" is not a valid TypeScript identifier`, {
      file,
      pointer,
    });
  }
}

/** Code-point order, so the output does not depend on the machine's locale. */
function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Equal once annotations are dropped and every `$ref` is reduced to the name it points to (the
 * two namespaces spell references to each other's twins differently).
 */
function sameShape(a: JsonSchema, b: JsonSchema): boolean {
  return JSON.stringify(shapeOf(a)) === JSON.stringify(shapeOf(b));
}

function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (!isSchemaObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    if (ANNOTATION_KEYWORDS.has(key)) continue;
    const child = value[key];
    out[key] = key === "$ref" && typeof child === "string" ? child.slice(child.lastIndexOf("/") + 1) : shapeOf(child);
  }
  return out;
}

/** Parses a JSON file, turning a syntax error into one that names the file, line and column. */
export function parseJsonFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (cause) {
    throw new CodegenError("SCHEMA_FILE_MISSING", `cannot read ${file}: ${(cause as Error).message}`, { file });
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    const message = (cause as Error).message;
    const position = /position (\d+)/.exec(message)?.[1];
    let where = "";
    if (position !== undefined) {
      const before = text.slice(0, Number(position));
      const line = before.split("\n").length;
      const column = Number(position) - before.lastIndexOf("\n");
      where = ` at line ${line}, column ${column}`;
    }
    throw new CodegenError("INVALID_JSON", `invalid JSON${where}: ${message}`, { file });
  }
}
