import { CodegenError } from "../util/codegen-error.js";
import { MESSAGE_DIRECTIONS, METHOD_SEVERITY, severityOf, type ChangeKind, type ChangeNote, type Direction, type Severity } from "./change-severity.js";
import { definitionDirections } from "./message-directions.js";
import { METHOD_UNIONS, readProtocolMethods, type MethodKind, type ProtocolMethod } from "./protocol-methods.js";
import { displayPath } from "../util/display-path.js";
import { readSchemaFolder, type SchemaBundle, type SchemaFolder, type SchemaDefinition, type SchemaFlavor } from "../read/schema-bundle.js";
import { definitionName, shapeOf, type Shape } from "./schema-shape.js";
import { diffShapes, type ShapeChange, type ShapeDiffContext } from "./shape-diff.js";

/** What a section lists: one kind of method, or the definitions (types). */
export type DiffSection = MethodKind | "type";

/** One field-level difference, classified for the directions its place travels in. */
export interface DiffDetail {
  readonly path: string;
  readonly kind: ChangeKind;
  readonly detail: string;
  readonly severity: Severity;
  readonly note?: ChangeNote;
  readonly directions: readonly Direction[];
}

/** A method or type that was added, removed or changed. */
export interface DiffEntry {
  readonly section: DiffSection;
  readonly name: string;
  readonly change: "added" | "removed" | "changed";
  /** The worst of its details (or of the addition or removal itself). */
  readonly severity: Severity;
  readonly note?: ChangeNote;
  /** Types: the directions it travels in, old and new together (none: no message uses it). Methods: their params' direction. */
  readonly directions: readonly Direction[];
  readonly details: readonly DiffDetail[];
}

export interface DiffCounts {
  readonly breaking: number;
  readonly additive: number;
  /** Of the additive ones, those with the `exhaustive-matching` note. */
  readonly exhaustive: number;
}

export interface FlavorDiff {
  readonly flavor: SchemaFlavor;
  readonly entries: readonly DiffEntry[];
  /** One per added or removed method or type, and one per detail of a changed one. */
  readonly counts: DiffCounts;
}

export interface SchemaDiff {
  /** The codex versions; for a folder that records none, the folder and `(version unknown)`. */
  readonly from: string;
  readonly to: string;
  readonly flavors: readonly FlavorDiff[];
}

export interface DiffOptions {
  /** Only these flavors (both by default). */
  readonly flavors?: readonly SchemaFlavor[];
}

const SECTIONS: readonly MethodKind[] = ["clientRequest", "serverRequest", "serverNotification", "clientNotification"];

/**
 * What changed between two schema folders (e.g. two codex versions), for a client: vendored schema
 * directories or codex's own exports (`readSchemaFolder`). `from` and `to` are the codex versions,
 * or, where a folder does not record one, the folder and `(version unknown)`.
 */
export function diffSchemaDirectories(fromDir: string, toDir: string, options: DiffOptions = {}): SchemaDiff {
  return diffSchemaFolders(readSchemaFolder(fromDir), readSchemaFolder(toDir), options);
}

/**
 * The diff of `from` and `to`, flavor by flavor: a flavor only one side has is skipped, but one
 * `options.flavors` asks for must be on both sides, and at least one flavor must be compared
 * (`SCHEMA_FILE_MISSING`: an empty diff would pass a gate).
 */
export function diffSchemaFolders(from: SchemaFolder, to: SchemaFolder, options: DiffOptions = {}): SchemaDiff {
  for (const flavor of options.flavors ?? []) {
    for (const side of [from, to]) {
      if (!side.bundles.some((bundle) => bundle.flavor === flavor)) {
        throw new CodegenError("SCHEMA_FILE_MISSING", `${displayPath(side.dir)} has no ${flavor} schemas: there is nothing to compare --flavor ${flavor} with`);
      }
    }
  }
  const flavors: FlavorDiff[] = [];
  for (const after of to.bundles) {
    if (options.flavors && !options.flavors.includes(after.flavor)) continue;
    const before = from.bundles.find((bundle) => bundle.flavor === after.flavor);
    if (before) flavors.push(diffBundles(before, after));
  }
  if (flavors.length === 0) {
    const has = (side: SchemaFolder) => `${displayPath(side.dir)} has ${side.bundles.map((bundle) => bundle.flavor).join(" and ")} schemas only`;
    throw new CodegenError("SCHEMA_FILE_MISSING", `${has(from)}, ${has(to)}: no flavor in common, so there is nothing to compare`);
  }
  return { from: versionOf(from), to: versionOf(to), flavors };
}

function versionOf(folder: SchemaFolder): string {
  return folder.codexVersion ?? `${displayPath(folder.dir)} (version unknown)`;
}

/** The diff of one flavor: methods first (by kind), then types. */
export function diffBundles(before: SchemaBundle, after: SchemaBundle): FlavorDiff {
  const context: ShapeDiffContext = { before, after };
  const methodsBefore = readProtocolMethods(before);
  const methodsAfter = readProtocolMethods(after);
  const entries: DiffEntry[] = [];

  for (const kind of SECTIONS) {
    const old = new Map(methodsBefore.byKind[kind].map((m) => [m.method, m]));
    const next = new Map(methodsAfter.byKind[kind].map((m) => [m.method, m]));
    const direction = [MESSAGE_DIRECTIONS[kind].params];
    for (const [name, method] of next) {
      const previous = old.get(name);
      if (!previous) entries.push(whole(kind, name, "added", direction));
      else {
        const details = diffMethod(previous, method, context);
        if (details.length > 0) entries.push(changed(kind, name, direction, details));
      }
    }
    for (const name of old.keys()) if (!next.has(name)) entries.push(whole(kind, name, "removed", direction));
  }

  const directionsBefore = definitionDirections(before, methodsBefore);
  const directionsAfter = definitionDirections(after, methodsAfter);
  const roots = new Set(Object.values(METHOD_UNIONS));
  const defs = (bundle: SchemaBundle) => new Map(bundle.definitions.filter((d) => d.namespace || !roots.has(d.name)).map((d) => [definitionName(d), d]));
  const [oldDefs, newDefs] = [defs(before), defs(after)];
  const typeEntries: DiffEntry[] = [];
  for (const [name, def] of newDefs) {
    const previous = oldDefs.get(name);
    const directions = travels(previous && directionsBefore.get(previous), directionsAfter.get(def));
    if (!previous) {
      typeEntries.push({ section: "type", name, change: "added", severity: "additive", directions, details: [] });
      continue;
    }
    const changes = diffShapes(shapeOf(previous.schema, before), shapeOf(def.schema, after), name, context);
    if (changes.length > 0) typeEntries.push(changed("type", name, directions, classify(changes, directions)));
  }
  for (const [name, def] of oldDefs) {
    if (newDefs.has(name)) continue;
    const directions = travels(directionsBefore.get(def), undefined);
    typeEntries.push({ section: "type", name, change: "removed", severity: "breaking", directions, details: [] });
  }
  typeEntries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  entries.push(...typeEntries);
  return { flavor: after.flavor, entries, counts: countChanges(entries) };
}

function diffMethod(before: ProtocolMethod, after: ProtocolMethod, context: ShapeDiffContext): DiffDetail[] {
  const { params: paramsDirection, result: resultDirection } = MESSAGE_DIRECTIONS[after.kind];
  const details: DiffDetail[] = [];
  const old = paramsOf(before, context.before);
  const next = paramsOf(after, context.after);
  const detail = (path: string, kind: ChangeKind, text: string, direction: Direction) => {
    details.push(...classify([{ path, kind, detail: text }], [direction]));
  };
  const presence = (p: { required: boolean }) => (p.required ? "required" : "optional");
  if (!old && next) {
    detail("params", next.required ? "params-added-required" : "params-added-optional", `none → ${next.label} (${presence(next)})`, paramsDirection);
  } else if (old && !next) {
    detail("params", "params-removed", `${old.label} → none`, paramsDirection);
  } else if (old && next) {
    if (old.required !== next.required) {
      detail("params", next.required ? "field-now-required" : "field-now-optional", `params now ${presence(next)}`, paramsDirection);
    }
    details.push(...classify(diffShapes(old.shape, next.shape, "params", context), [paramsDirection]));
  }
  if (before.result && after.result) {
    const [a, b] = [before.result.definition, after.result.definition];
    if (a && b) {
      details.push(...classify(diffShapes(refShape(a), refShape(b), "result", context), [resultDirection]));
    } else if (a !== b) {
      detail("result", "result-resolution-changed", `${a ? a.name : "unknown"} → ${b ? b.name : "unknown"}`, resultDirection);
    }
  }
  return details;
}

/** A method's params as compared: none when absent or `null`; nullability is what `required` says. */
function paramsOf(method: ProtocolMethod, bundle: SchemaBundle): { shape: Shape; required: boolean; label: string } | undefined {
  if (!method.params) return undefined;
  const shape = shapeOf(method.params.schema, bundle);
  if (shape.kind === "primitive" && shape.types.length === 1 && shape.types[0] === "null") return undefined;
  const solid = { ...shape, nullable: false } as Shape;
  return { shape: solid, required: method.params.required, label: method.paramsDefinition ? definitionName(method.paramsDefinition) : "inline" };
}

function refShape(definition: SchemaDefinition): Shape {
  return { kind: "ref", name: definitionName(definition), definition, nullable: false };
}

/** The directions a definition travels in, old and new together; none when no message uses it. */
function travels(before: ReadonlySet<Direction> | undefined, after: ReadonlySet<Direction> | undefined): Direction[] {
  const all = new Set([...(before ?? []), ...(after ?? [])]);
  return (["sent", "received"] as const).filter((d) => all.has(d));
}

function classify(changes: readonly ShapeChange[], directions: readonly Direction[]): DiffDetail[] {
  return changes.map((change) => {
    // A definition no message uses (an envelope such as JSONRPCError) is judged both ways.
    const rule = severityOf(change.kind, directions.length > 0 ? directions : ["sent", "received"]);
    return { ...change, severity: rule.severity, ...(rule.note && { note: rule.note }), directions };
  });
}

function whole(section: MethodKind, name: string, change: "added" | "removed", directions: readonly Direction[]): DiffEntry {
  const rule = METHOD_SEVERITY[section][change];
  return { section, name, change, severity: rule.severity, ...(rule.note && { note: rule.note }), directions, details: [] };
}

function changed(section: DiffSection, name: string, directions: readonly Direction[], details: readonly DiffDetail[]): DiffEntry {
  const breaking = details.some((d) => d.severity === "breaking");
  const note = breaking ? undefined : details.find((d) => d.note)?.note;
  return { section, name, change: "changed", severity: breaking ? "breaking" : "additive", ...(note && { note }), directions, details };
}

function countChanges(entries: readonly DiffEntry[]): DiffCounts {
  const counted = entries.flatMap((entry): { severity: Severity; note?: ChangeNote }[] => (entry.change === "changed" ? [...entry.details] : [entry]));
  return {
    breaking: counted.filter((c) => c.severity === "breaking").length,
    additive: counted.filter((c) => c.severity === "additive").length,
    exhaustive: counted.filter((c) => c.severity === "additive" && c.note === "exhaustive-matching").length,
  };
}
