import type { ChangeKind } from "./change-severity.js";
import { describeShape, shapeOf, type Literal, type PropertyShape, type Shape } from "./schema-shape.js";
import type { SchemaBundle } from "../read/schema-bundle.js";

/** One difference between two shapes, where it is (`ThreadListParams.cwd`) and what it was. */
export interface ShapeChange {
  readonly path: string;
  readonly kind: ChangeKind;
  readonly detail: string;
}

/** The two bundles being compared: references in each shape resolve in its own bundle. */
export interface ShapeDiffContext {
  readonly before: SchemaBundle;
  readonly after: SchemaBundle;
}

/**
 * Lists what changed from `before` to `after`, field by field. A reference to the same name on
 * both sides is equal here (that definition's own changes are listed under it); references to
 * different names, or a reference against an inline schema, are compared by what they point to.
 */
export function diffShapes(before: Shape, after: Shape, path: string, context: ShapeDiffContext): ShapeChange[] {
  const changes: ShapeChange[] = [];
  new ShapeDiff(context, changes).compare(before, after, path);
  return changes;
}

class ShapeDiff {
  /** Pairs of differently named references being expanded, so recursive types end. */
  private readonly expanding = new Set<string>();

  constructor(
    private readonly context: ShapeDiffContext,
    private readonly changes: ShapeChange[],
  ) {}

  compare(a: Shape, b: Shape, path: string): void {
    if (a.kind === "ref" && b.kind === "ref" && a.name === b.name) {
      this.nullability(a, b, path);
      return;
    }
    if (a.kind === "ref" || b.kind === "ref") {
      const key = `${a.kind === "ref" ? a.name : "inline"}→${b.kind === "ref" ? b.name : "inline"}`;
      if (this.expanding.has(key)) return;
      this.expanding.add(key);
      if (a.kind === "ref" && b.kind === "ref") this.push(path, "type-renamed", `${a.name} → ${b.name}`);
      this.compare(this.expand(a, this.context.before), this.expand(b, this.context.after), path);
      this.expanding.delete(key);
      return;
    }
    this.nullability(a, b, path);
    if (a.kind === "union" || b.kind === "union") {
      if (a.kind === "union" && b.kind === "union") this.union(a.members, b.members, path);
      else if (a.kind === "union") this.union(a.members, [{ ...b, nullable: false }], path);
      else this.union([{ ...a, nullable: false }], (b as Extract<Shape, { kind: "union" }>).members, path);
      return;
    }
    if (a.kind === "any" || b.kind === "any") {
      if (a.kind !== b.kind) this.push(path, a.kind === "any" ? "type-narrowed" : "type-widened", `${describeShape(a)} → ${describeShape(b)}`);
      return;
    }
    if (a.kind === "literals" && b.kind === "literals") return this.literals(a.values, b.values, path);
    if (a.kind === "literals" && b.kind === "primitive" && a.values.every((v) => b.types.includes(literalType(v)))) {
      return this.push(path, "type-widened", `${describeShape(a)} → ${describeShape(b)}`);
    }
    if (a.kind === "primitive" && b.kind === "literals" && b.values.every((v) => a.types.includes(literalType(v)))) {
      return this.push(path, "type-narrowed", `${describeShape(a)} → ${describeShape(b)}`);
    }
    if (a.kind === "primitive" && b.kind === "primitive") return this.primitive(a, b, path);
    if (a.kind === "array" && b.kind === "array") return this.compare(a.items, b.items, `${path}[]`);
    if (a.kind === "object" && b.kind === "object") return this.object(a, b, path);
    if (a.kind === "never" && b.kind === "never") return;
    this.push(path, "type-changed", `${describeShape(a)} → ${describeShape(b)}`);
  }

  private expand(shape: Shape, bundle: SchemaBundle): Shape {
    if (shape.kind !== "ref") return shape;
    const target = shapeOf(shape.definition.schema, bundle);
    return { ...target, nullable: target.nullable || shape.nullable, title: shape.name };
  }

  private nullability(a: Shape, b: Shape, path: string): void {
    if (a.kind === "any" || b.kind === "any" || a.nullable === b.nullable) return;
    this.push(path, b.nullable ? "nullable-added" : "nullable-removed", b.nullable ? "now accepts null" : "no longer null");
  }

  private literals(a: readonly Literal[], b: readonly Literal[], path: string): void {
    const added = b.filter((v) => !a.includes(v));
    const removed = a.filter((v) => !b.includes(v));
    if (added.length > 0) this.push(path, "values-added", `values added: ${added.map((v) => JSON.stringify(v)).join(", ")}`);
    if (removed.length > 0) this.push(path, "values-removed", `values removed: ${removed.map((v) => JSON.stringify(v)).join(", ")}`);
  }

  private primitive(a: Extract<Shape, { kind: "primitive" }>, b: Extract<Shape, { kind: "primitive" }>, path: string): void {
    const added = b.types.filter((t) => !a.types.includes(t) && !(t === "number" && a.types.includes("integer")));
    const removed = a.types.filter((t) => !b.types.includes(t) && !(t === "integer" && b.types.includes("number")));
    const from = describeShape({ ...a, nullable: false });
    const to = describeShape({ ...b, nullable: false });
    if (added.length > 0 && removed.length > 0) this.push(path, "type-changed", `${from} → ${to}`);
    else if (added.length > 0 || (b.types.includes("number") && a.types.includes("integer") && !b.types.includes("integer"))) {
      this.push(path, "type-widened", `${from} → ${to}`);
    } else if (removed.length > 0 || (a.types.includes("number") && b.types.includes("integer") && !a.types.includes("integer"))) {
      this.push(path, "type-narrowed", `${from} → ${to}`);
    } else if (a.format !== b.format) this.push(path, "format-changed", `format ${a.format ?? "none"} → ${b.format ?? "none"}`);
  }

  private object(a: Extract<Shape, { kind: "object" }>, b: Extract<Shape, { kind: "object" }>, path: string): void {
    for (const [name, before] of a.properties) {
      const after = b.properties.get(name);
      const at = `${path}.${name}`;
      if (!after) {
        this.push(at, "field-removed", `removed (was ${presence(before)} ${describeShape(before.shape)})`);
        continue;
      }
      if (before.required !== after.required) {
        this.push(at, after.required ? "field-now-required" : "field-now-optional", after.required ? "now required" : "now optional");
      }
      this.compare(before.shape, after.shape, at);
    }
    for (const [name, after] of b.properties) {
      if (a.properties.has(name)) continue;
      this.push(`${path}.${name}`, after.required ? "field-added-required" : "field-added-optional", `added, ${presence(after)} ${describeShape(after.shape)}`);
    }
    if (typeof a.extra !== "boolean" && typeof b.extra !== "boolean") this.compare(a.extra, b.extra, `${path}{}`);
    else if ((a.extra === false) !== (b.extra === false)) {
      this.push(path, b.extra === false ? "extra-keys-refused" : "extra-keys-allowed", b.extra === false ? "other keys now refused" : "other keys now allowed");
    } else if (typeof a.extra !== typeof b.extra) {
      this.push(`${path}{}`, typeof b.extra === "boolean" ? "type-widened" : "type-narrowed", "values of other keys");
    }
  }

  /**
   * Members are matched by their tag (`type: "agentMessage"`) when every member has one, else by
   * referenced name, title or kind; a leftover pair is compared when each side has just one, or
   * when two objects share most property names. The rest were added or removed.
   */
  private union(a: readonly Shape[], b: readonly Shape[], path: string): void {
    const [before, after] = [mergeLiterals(a), mergeLiterals(b)];
    const tag = commonTag([...before, ...after]);
    const keyed = (members: readonly Shape[]) => {
      const keys = memberKeys(members, tag);
      return new Map(members.map((m, i) => [keys[i] as string, m]));
    };
    const [old, next] = [keyed(before), keyed(after)];
    const leftOld: [string, Shape][] = [];
    for (const [key, member] of old) {
      const match = next.get(key);
      if (match) {
        this.compare(member, match, `${path}${memberLabel(key)}`);
        next.delete(key);
      } else leftOld.push([key, member]);
    }
    const leftNew = [...next];
    for (const [key, member] of [...leftOld]) {
      const partner = pairFor(
        member,
        leftNew.map(([, m]) => m),
        leftOld.length === 1 && leftNew.length === 1,
      );
      if (partner < 0) continue;
      const [newKey, newMember] = leftNew.splice(partner, 1)[0] as [string, Shape];
      leftOld.splice(
        leftOld.findIndex(([k]) => k === key),
        1,
      );
      this.compare(member, newMember, `${path}${memberLabel(newKey)}`);
    }
    for (const [key, member] of leftOld) this.push(path, "variant-removed", `variant removed: ${memberName(key, member)}`);
    for (const [key, member] of leftNew) this.push(path, "variant-added", `variant added: ${memberName(key, member)}`);
  }

  private push(path: string, kind: ChangeKind, detail: string): void {
    this.changes.push({ path, kind, detail });
  }
}

function presence(property: PropertyShape): string {
  return property.required ? "required" : "optional";
}

function literalType(value: Literal): string {
  return typeof value === "number" ? (Number.isInteger(value) ? "integer" : "number") : typeof value;
}

/** The key of a union's merged literal members: their values are the union's own, so no path segment. */
const LITERALS = "(values)";

/** Literal members of a union are one set of values (`CodexErrorInfo`'s plain codes). */
function mergeLiterals(members: readonly Shape[]): Shape[] {
  const literals = members.filter((m) => m.kind === "literals");
  if (literals.length === 0) return [...members];
  const values = [...new Set(literals.flatMap((m) => (m.kind === "literals" ? m.values : [])))];
  return [{ kind: "literals", values, nullable: false, title: LITERALS }, ...members.filter((m) => m.kind !== "literals")];
}

/** A property every object member fixes to one literal, e.g. `type` or `method`. */
function commonTag(members: readonly Shape[]): string | undefined {
  const objects = members.filter((m) => m.kind === "object");
  if (objects.length < 2 || objects.length !== members.length) return undefined;
  const first = objects[0] as Extract<Shape, { kind: "object" }>;
  for (const name of first.properties.keys()) {
    const fixed = objects.every((m) => {
      const property = m.kind === "object" ? m.properties.get(name)?.shape : undefined;
      return property?.kind === "literals" && property.values.length === 1;
    });
    if (fixed) return name;
  }
  return undefined;
}

/** One key per member, unique within the union: its tag, else referenced name, title or kind. */
function memberKeys(members: readonly Shape[], tag: string | undefined): string[] {
  const keys = members.map((member) => memberKey(member, tag));
  return keys.map((key, index) => {
    if (keys.indexOf(key) === keys.lastIndexOf(key)) return key;
    const member = members[index] as Shape;
    const title = member.title && !key.endsWith(`|${member.title}`) ? `|${member.title}` : "";
    const again = keys.slice(0, index).filter((k) => k === key).length;
    return `${key}${title}${title ? "" : `#${again}`}`;
  });
}

function memberKey(member: Shape, tag: string | undefined): string {
  if (tag && member.kind === "object") {
    const value = member.properties.get(tag)?.shape;
    if (value?.kind === "literals") return `[${tag}=${String(value.values[0])}]`;
  }
  if (member.kind === "ref") return `|${member.name}`;
  if (member.title) return `|${member.title}`;
  if (member.kind === "object") {
    // An untitled object: its single required key when it has one (serde's externally tagged enums).
    const required = [...member.properties].filter(([, p]) => p.required).map(([name]) => name);
    return required.length === 1 ? `|{${required[0]}}` : "|object";
  }
  if (member.kind === "primitive") return `|${member.types.join("|")}`;
  return `|${member.kind}`;
}

/** The key as a path segment; a `#n` that only keeps keys apart is not shown. */
function memberLabel(key: string): string {
  return key === `|${LITERALS}` ? "" : key.replace(/#\d+$/, "");
}

/** The key as a name in messages: `type=audio`, `FileIdUserInput`. */
function memberName(key: string, member: Shape): string {
  const name = memberLabel(key)
    .replace(/^\[(.*?)\]/, "$1 ")
    .replace(/\|/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return name === "" || name === "object" ? describeShape(member) : name;
}

/** The leftover new member to compare an old one with, or -1: the only pair, or most property names shared. */
function pairFor(member: Shape, candidates: readonly Shape[], onlyPair: boolean): number {
  if (onlyPair) return 0;
  if (member.kind !== "object") return -1;
  let best = -1;
  let bestScore = 0.5;
  candidates.forEach((candidate, index) => {
    if (candidate.kind !== "object") return;
    const names = new Set([...member.properties.keys(), ...candidate.properties.keys()]);
    const shared = [...member.properties.keys()].filter((name) => candidate.properties.has(name)).length;
    const score = names.size === 0 ? 0 : shared / names.size;
    if (score > bestScore) [best, bestScore] = [index, score];
  });
  return best;
}
