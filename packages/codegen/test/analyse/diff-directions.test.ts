import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffSchemaDirectories, type DiffEntry } from "../../src/analyse/schema-diff.js";
import { notification, ref, request, writeSchemaFixture, type FixtureOptions } from "../support/schema-fixture.js";

const str = { type: "string" };
const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: "object", properties, required });

/**
 * ThingReadParams is sent (client request params), Thing and Mode are received (in a notification
 * and a result), ThingApproveParams is received (server request params), ThingApproveResponse is
 * sent (a server request's result), Shared travels both ways.
 */
const BASE: Record<string, unknown> = {
  ThingReadParams: object({ id: str, verbose: { type: ["boolean", "null"] }, filter: ref("Shared") }, ["id"]),
  Thing: object(
    {
      id: str,
      size: { type: "integer", format: "uint32" },
      note: { type: ["string", "null"] },
      mode: ref("Mode"),
      shape: ref("Shape"),
      shared: ref("Shared"),
    },
    ["id", "size", "mode"],
  ),
  Mode: { type: "string", enum: ["fast", "slow"] },
  Shape: {
    oneOf: [
      object({ type: { type: "string", enum: ["circle"] }, radius: { type: "number" } }, ["type", "radius"]),
      object({ type: { type: "string", enum: ["square"] }, side: { type: "number" } }, ["type", "side"]),
    ],
  },
  Shared: object({ label: str }, ["label"]),
  ThingApproveResponse: object({ decision: { type: "string", enum: ["accept", "decline"] } }, ["decision"]),
};

function diff(before: FixtureOptions, after: FixtureOptions) {
  return diffSchemaDirectories(writeSchemaFixture(before), writeSchemaFixture(after)).flavors[0]?.entries ?? [];
}

function change(v2: Record<string, unknown>) {
  return diff({ v2: BASE }, { v2: { ...BASE, ...v2 } });
}

function entry(entries: readonly DiffEntry[], name: string): DiffEntry {
  const found = entries.find((e) => e.name === name);
  if (!found) throw new Error(`no entry for ${name}: ${JSON.stringify(entries.map((e) => e.name))}`);
  return found;
}

const modify = (name: string, edit: (schema: Record<string, any>) => void) => {
  const copy = structuredClone(BASE[name]) as Record<string, any>;
  edit(copy);
  return { [name]: copy };
};

describe("diff: breaking or additive by the direction a type travels", () => {
  it.each([
    {
      case: "new required field, sent",
      v2: modify("ThingReadParams", (s) => ((s.properties.limit = { type: "integer" }), s.required.push("limit"))),
      type: "ThingReadParams",
      path: "ThingReadParams.limit",
      kind: "field-added-required",
      severity: "breaking",
    },
    {
      case: "new optional field, sent",
      v2: modify("ThingReadParams", (s) => (s.properties.limit = { type: "integer" })),
      type: "ThingReadParams",
      path: "ThingReadParams.limit",
      kind: "field-added-optional",
      severity: "additive",
    },
    {
      case: "new required field, received",
      v2: modify("Thing", (s) => ((s.properties.color = str), s.required.push("color"))),
      type: "Thing",
      path: "Thing.color",
      kind: "field-added-required",
      severity: "additive",
    },
    {
      case: "new optional field, received",
      v2: modify("Thing", (s) => (s.properties.color = str)),
      type: "Thing",
      path: "Thing.color",
      kind: "field-added-optional",
      severity: "additive",
    },
    {
      case: "new required field, received as server request params",
      v2: { ThingApproveParams: object({ thingId: str, reason: str }, ["thingId", "reason"]) },
      type: "ThingApproveParams",
      path: "ThingApproveParams.reason",
      kind: "field-added-required",
      severity: "additive",
    },
    {
      case: "new required field, sent as a server request's result",
      v2: modify("ThingApproveResponse", (s) => ((s.properties.why = str), s.required.push("why"))),
      type: "ThingApproveResponse",
      path: "ThingApproveResponse.why",
      kind: "field-added-required",
      severity: "breaking",
    },
    {
      case: "removed field, received",
      v2: modify("Thing", (s) => delete s.properties.note),
      type: "Thing",
      path: "Thing.note",
      kind: "field-removed",
      severity: "breaking",
    },
    {
      case: "removed field, sent",
      v2: modify("ThingReadParams", (s) => delete s.properties.verbose),
      type: "ThingReadParams",
      path: "ThingReadParams.verbose",
      kind: "field-removed",
      severity: "breaking",
    },
    {
      case: "field now required, sent",
      v2: modify("ThingReadParams", (s) => s.required.push("verbose")),
      type: "ThingReadParams",
      path: "ThingReadParams.verbose",
      kind: "field-now-required",
      severity: "breaking",
    },
    {
      case: "field now required, received",
      v2: modify("Thing", (s) => s.required.push("note")),
      type: "Thing",
      path: "Thing.note",
      kind: "field-now-required",
      severity: "additive",
    },
    {
      case: "field now optional, received",
      v2: modify("Thing", (s) => (s.required = ["id", "mode"])),
      type: "Thing",
      path: "Thing.size",
      kind: "field-now-optional",
      severity: "breaking",
    },
    {
      case: "enum value removed, sent",
      v2: modify("ThingApproveResponse", (s) => (s.properties.decision.enum = ["accept"])),
      type: "ThingApproveResponse",
      path: "ThingApproveResponse.decision",
      kind: "values-removed",
      severity: "breaking",
    },
    {
      case: "enum value added, sent",
      v2: modify("ThingApproveResponse", (s) => s.properties.decision.enum.push("defer")),
      type: "ThingApproveResponse",
      path: "ThingApproveResponse.decision",
      kind: "values-added",
      severity: "additive",
    },
    {
      case: "enum value added, received",
      v2: { Mode: { type: "string", enum: ["fast", "slow", "turbo"] } },
      type: "Mode",
      path: "Mode",
      kind: "values-added",
      severity: "additive",
      note: "exhaustive-matching",
    },
    {
      case: "enum value added, received, spelled as a union of enums",
      v2: {
        Mode: {
          oneOf: [
            { type: "string", enum: ["fast", "slow"] },
            { type: "string", enum: ["turbo"] },
          ],
        },
      },
      type: "Mode",
      path: "Mode",
      kind: "values-added",
      severity: "additive",
      note: "exhaustive-matching",
    },
    {
      case: "enum value removed, received",
      v2: { Mode: { type: "string", enum: ["fast"] } },
      type: "Mode",
      path: "Mode",
      kind: "values-removed",
      severity: "additive",
    },
    {
      case: "variant added to a tagged union, received",
      v2: modify("Shape", (s) => s.oneOf.push(object({ type: { type: "string", enum: ["dot"] } }, ["type"]))),
      type: "Shape",
      path: "Shape",
      kind: "variant-added",
      severity: "additive",
      note: "exhaustive-matching",
    },
    {
      case: "field added inside a union variant, received",
      v2: modify("Shape", (s) => (s.oneOf[1].properties.rounded = { type: "boolean" })),
      type: "Shape",
      path: "Shape[type=square].rounded",
      kind: "field-added-optional",
      severity: "additive",
    },
    {
      case: "now nullable, received",
      v2: modify("Thing", (s) => (s.properties.id = { type: ["string", "null"] })),
      type: "Thing",
      path: "Thing.id",
      kind: "nullable-added",
      severity: "breaking",
    },
    {
      case: "now nullable, sent",
      v2: modify("ThingReadParams", (s) => (s.properties.id = { type: ["string", "null"] })),
      type: "ThingReadParams",
      path: "ThingReadParams.id",
      kind: "nullable-added",
      severity: "additive",
    },
    {
      case: "no longer nullable, received",
      v2: modify("Thing", (s) => (s.properties.note = str)),
      type: "Thing",
      path: "Thing.note",
      kind: "nullable-removed",
      severity: "additive",
    },
    {
      case: "another type, received",
      v2: modify("Thing", (s) => (s.properties.size = str)),
      type: "Thing",
      path: "Thing.size",
      kind: "type-changed",
      severity: "breaking",
    },
    {
      case: "another integer width",
      v2: modify("Thing", (s) => (s.properties.size.format = "uint64")),
      type: "Thing",
      path: "Thing.size",
      kind: "format-changed",
      severity: "breaking",
    },
    {
      case: "both ways: a new optional field",
      v2: modify("Shared", (s) => (s.properties.hint = str)),
      type: "Shared",
      path: "Shared.hint",
      kind: "field-added-optional",
      severity: "additive",
    },
    {
      case: "both ways: a new required field breaks what the client sends",
      v2: modify("Shared", (s) => ((s.properties.kind = str), s.required.push("kind"))),
      type: "Shared",
      path: "Shared.kind",
      kind: "field-added-required",
      severity: "breaking",
    },
  ])("$case: $severity", ({ v2, type, path, kind, severity, note }) => {
    const found = entry(change(v2), type);
    expect(found.details).toEqual([expect.objectContaining({ path, kind, severity, ...(note ? { note } : {}) })]);
    expect(found.severity).toBe(severity);
    if (!note) expect(found.details[0]).not.toHaveProperty("note");
  });

  it("knows which way each type travels", () => {
    const entries = change({
      ThingReadParams: object({ id: str, x: str }, ["id"]),
      Thing: { ...(BASE.Thing as object), title: "Thing", properties: { ...(BASE.Thing as any).properties, x: str } },
      Shared: object({ label: str, x: str }, ["label"]),
      ThingApproveResponse: object({ decision: { type: "string", enum: ["accept", "decline"] }, x: str }, ["decision"]),
    });
    expect(entry(entries, "ThingReadParams").directions).toEqual(["sent"]);
    expect(entry(entries, "Thing").directions).toEqual(["received"]);
    expect(entry(entries, "ThingApproveResponse").directions).toEqual(["sent"]);
    expect(entry(entries, "Shared").directions).toEqual(["sent", "received"]);
  });

  it("ignores descriptions, titles and defaults", () => {
    expect(
      change({
        Thing: { ...(BASE.Thing as object), description: "Now described.", title: "Thing" },
        Mode: { type: "string", enum: ["fast", "slow"], description: "How fast.", default: "fast" },
      }),
    ).toEqual([]);
  });

  it("lists added and removed types: additive and breaking", () => {
    const entries = diff(
      { v2: BASE },
      {
        v2: {
          ...BASE,
          Extra: object({ a: str }),
          Shared: undefined,
          ThingReadParams: object({ id: str }, ["id"]),
          ...modify("Thing", (s) => delete s.properties.shared),
        },
      },
    );
    expect(entry(entries, "Extra")).toMatchObject({ change: "added", severity: "additive" });
    expect(entry(entries, "Shared")).toMatchObject({ change: "removed", severity: "breaking" });
  });
});

const noParams = { type: "null" };
const pingParams = { PingParams: object({ id: str }, ["id"]) };

describe("diff: methods by kind and direction", () => {
  it.each([
    {
      case: "client request params appear, required",
      before: { root: { ClientRequest: { oneOf: [request("thing/ping", noParams, false)] } } },
      after: { root: { ClientRequest: { oneOf: [request("thing/ping", ref("PingParams"))] } }, v2: pingParams },
      section: "clientRequest",
      detail: { path: "params", kind: "params-added-required", severity: "breaking", detail: "none → PingParams (required)" },
    },
    {
      case: "client request params appear, optional",
      before: { root: { ClientRequest: { oneOf: [request("thing/ping", noParams, false)] } } },
      after: { root: { ClientRequest: { oneOf: [request("thing/ping", { anyOf: [ref("PingParams"), noParams] }, false)] } }, v2: pingParams },
      section: "clientRequest",
      detail: { path: "params", kind: "params-added-optional", severity: "additive", detail: "none → PingParams (optional)" },
    },
    {
      case: "client request params vanish",
      before: { root: { ClientRequest: { oneOf: [request("thing/ping", ref("PingParams"))] } }, v2: pingParams },
      after: { root: { ClientRequest: { oneOf: [request("thing/ping", noParams, false)] } }, v2: pingParams },
      section: "clientRequest",
      detail: { path: "params", kind: "params-removed", severity: "breaking" },
    },
    {
      case: "client request params become required",
      before: { root: { ClientRequest: { oneOf: [request("thing/ping", { anyOf: [ref("PingParams"), noParams] }, false)] } }, v2: pingParams },
      after: { root: { ClientRequest: { oneOf: [request("thing/ping", ref("PingParams"))] } }, v2: pingParams },
      section: "clientRequest",
      detail: { path: "params", kind: "field-now-required", severity: "breaking" },
    },
    {
      case: "server notification params appear",
      before: { root: { ServerNotification: { oneOf: [notification("thing/poked", undefined)] } } },
      after: { root: { ServerNotification: { oneOf: [notification("thing/poked", ref("PingParams"))] } }, v2: pingParams },
      section: "serverNotification",
      detail: { path: "params", kind: "params-added-required", severity: "additive" },
    },
    {
      case: "client request params name another type with one more required field",
      before: { root: { ClientRequest: { oneOf: [request("thing/ping", ref("PingParams"))] } }, v2: pingParams },
      after: {
        root: { ClientRequest: { oneOf: [request("thing/ping", ref("PingV2Params"))] } },
        v2: { PingV2Params: object({ id: str, at: str }, ["id", "at"]) },
      },
      section: "clientRequest",
      detail: { path: "params.at", kind: "field-added-required", severity: "breaking" },
    },
  ])("$case", ({ before, after, section, detail }) => {
    const found = entry(diff(before, after), `thing/${section === "serverNotification" ? "poked" : "ping"}`);
    expect(found.section).toBe(section);
    expect(found.details).toContainEqual(expect.objectContaining(detail));
  });

  it.each([
    {
      kind: "clientRequest",
      union: "ClientRequest",
      member: request("thing/new", noParams, false),
      added: { severity: "additive" },
      removed: { severity: "breaking" },
    },
    {
      kind: "serverRequest",
      union: "ServerRequest",
      member: request("thing/new", ref("ThingApproveParams")),
      added: { severity: "additive", note: "must-answer" },
      removed: { severity: "additive" },
    },
    {
      kind: "serverNotification",
      union: "ServerNotification",
      member: notification("thing/new", undefined),
      added: { severity: "additive" },
      removed: { severity: "breaking" },
    },
    {
      kind: "clientNotification",
      union: "ClientNotification",
      member: notification("thing/new", undefined),
      added: { severity: "additive" },
      removed: { severity: "breaking" },
    },
  ])("a $kind added is $added.severity, removed is $removed.severity", ({ union, member, added, removed }) => {
    const base = writeSchemaFixture();
    const baseMembers = (JSON.parse(JSON.stringify(readRoot(base, union))) as { oneOf: unknown[] }).oneOf;
    const more = writeSchemaFixture({ root: { [union]: { oneOf: [...baseMembers, member] } } });
    const grew = diffSchemaDirectories(base, more).flavors[0]?.entries ?? [];
    expect(entry(grew, "thing/new")).toMatchObject({ change: "added", ...added });
    const shrank = diffSchemaDirectories(more, base).flavors[0]?.entries ?? [];
    expect(entry(shrank, "thing/new")).toMatchObject({ change: "removed", ...removed });
  });
});

function readRoot(dir: string, name: string): unknown {
  // The fixture's own root unions, so that the test adds to them rather than replacing them.
  const bundle = JSON.parse(readFileSync(join(dir, "stable", "codex_app_server_protocol.schemas.json"), "utf8"));
  return bundle.definitions[name];
}
