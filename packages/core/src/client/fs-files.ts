import { ProtocolError } from "../errors/errors.js";
import { decodeBase64, encodeBase64 } from "../util/base64.js";
import { isRecord } from "../util/is-record.js";
import type { ApiHost } from "./api-host.js";

// File contents to and from codex (base64 on the wire): loaded on demand (import()) by
// `client.fs.readFile` and `writeFile`.

/** A file's bytes (`fs/readFile`). */
export async function readFile(host: ApiHost, path: string): Promise<Uint8Array> {
  const result = await host.request("fs/readFile", { path });
  // A reply without the contents is no empty file: read-modify-write would truncate it.
  if (!isRecord(result) || typeof result.dataBase64 !== "string") throw new ProtocolError("fs/readFile", "the result has no `dataBase64` string");
  try {
    return decodeBase64(result.dataBase64);
  } catch (error) {
    throw new ProtocolError("fs/readFile", `\`dataBase64\` is ${error instanceof Error ? error.message : "not base64"}`);
  }
}

/** Writes a file, replacing it (`fs/writeFile`); text is written as UTF-8. */
export async function writeFile(host: ApiHost, path: string, data: string | Uint8Array): Promise<void> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  await host.request("fs/writeFile", { path, dataBase64: encodeBase64(bytes) });
}
