import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { temporaryDirectory } from "./temporary-directory.js";

type Schema = Record<string, unknown>;

export interface FixtureOptions {
  /** Extra or replacing v2 definitions. */
  v2?: Record<string, unknown>;
  /** Extra or replacing root (v1) definitions. */
  root?: Record<string, unknown>;
  /** Raw text for the stable bundle (e.g. invalid JSON); wins over everything else. */
  rawBundle?: string;
}

/** A request in a method union: `{id, method: {enum: [method]}, params: {$ref}}`. */
export function request(method: string, params: Schema | undefined, required = true): Schema {
  return {
    type: "object",
    title: `${method}Request`,
    properties: {
      id: { $ref: "#/definitions/RequestId" },
      method: { type: "string", enum: [method] },
      ...(params ? { params } : {}),
    },
    required: ["id", "method", ...(params && required ? ["params"] : [])],
  };
}

export function notification(method: string, params: Schema | undefined): Schema {
  return {
    type: "object",
    properties: { method: { type: "string", enum: [method] }, ...(params ? { params } : {}) },
    required: ["method", ...(params ? ["params"] : [])],
  };
}

export const ref = (name: string): Schema => ({ $ref: `#/definitions/v2/${name}` });

/**
 * A small but complete schema directory (manifest + stable bundle) in a fresh temporary folder:
 * one client request `thing/read` (ThingReadParams → ThingReadResponse), one server request,
 * one server notification, the `initialized` client notification.
 */
export function writeSchemaFixture(options: FixtureOptions = {}): string {
  const dir = temporaryDirectory("codex-rpc-fixture-");
  writeFileSync(join(dir, "manifest.json"), JSON.stringify({ codexVersion: "9.9.9" }));
  mkdirSync(join(dir, "stable"));
  const bundle = {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "CodexAppServerProtocol",
    type: "object",
    definitions: {
      RequestId: { anyOf: [{ type: "string" }, { type: "integer", format: "int64" }] },
      ClientRequest: { oneOf: [request("thing/read", ref("ThingReadParams"))] },
      ServerRequest: { oneOf: [request("thing/approve", ref("ThingApproveParams"))] },
      ServerNotification: { oneOf: [notification("thing/changed", ref("ThingChangedNotification"))] },
      ClientNotification: { oneOf: [notification("initialized", undefined)] },
      ...options.root,
      v2: {
        ThingReadParams: {
          type: "object",
          properties: { id: { type: "string" }, verbose: { type: ["boolean", "null"] } },
          required: ["id"],
        },
        ThingReadResponse: {
          type: "object",
          properties: { thing: ref("Thing") },
          required: ["thing"],
        },
        Thing: {
          type: "object",
          description: "A thing.",
          properties: {
            id: { type: "string" },
            size: { type: "integer", format: "uint32" },
            note: { type: ["string", "null"], description: "Written by the server as null when unset." },
            tags: { type: "array", items: { type: "string" }, default: [] },
          },
          required: ["id", "size"],
        },
        ThingApproveParams: { type: "object", properties: { thingId: { type: "string" } }, required: ["thingId"] },
        ThingApproveResponse: {
          type: "object",
          properties: { decision: { type: "string", enum: ["accept", "decline"] } },
          required: ["decision"],
        },
        ThingChangedNotification: {
          type: "object",
          properties: { thing: ref("Thing") },
          required: ["thing"],
        },
        ...options.v2,
      },
    },
  };
  writeFileSync(join(dir, "stable", "codex_app_server_protocol.schemas.json"), options.rawBundle ?? JSON.stringify(bundle, null, 2));
  return dir;
}
