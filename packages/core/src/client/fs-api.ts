import { Observable, type Unsubscribable } from "rxjs";
import { ProtocolError } from "../errors/errors.js";
import type { DefaultProtocolTypes, ParamsIn, ProtocolTypesShape, ResultIn } from "../rpc/protocol-types.js";
import { isRecord } from "../util/is-record.js";
import type { ApiHost } from "./api-host.js";

type Requests<T extends ProtocolTypesShape> = T["clientRequests"];
/** A method's params without `path` (the helper's first argument). */
type OptionsOf<T extends ProtocolTypesShape, M extends string> = Omit<Exclude<ParamsIn<Requests<T>, M>, undefined>, "path">;
/** `fs/changed`'s params in the client's protocol: the watch's id and the paths that changed. */
export type FsChange<T extends ProtocolTypesShape = DefaultProtocolTypes> = ParamsIn<T["serverNotifications"], "fs/changed">;

/**
 * The app-server's file-system methods (`client.fs`), on the machine codex runs on, typed by the
 * client's protocol. Paths must be absolute (codex refuses relative ones with -32600); contents
 * travel as base64 and are bytes or UTF-8 text here.
 */
export class CodexFs<T extends ProtocolTypesShape = DefaultProtocolTypes> {
  readonly #host: ApiHost;

  constructor(host: ApiHost) {
    this.#host = host;
  }

  /** A file's bytes (`fs/readFile`). */
  async readFile(path: string): Promise<Uint8Array> {
    return (await this.#host.load("fs/readFile", import("./fs-files.js"))).readFile(this.#host, path);
  }

  /** A file's contents as UTF-8 text (a byte order mark kept, as Node's `readFile` keeps it: written back, the file is unchanged). */
  async readTextFile(path: string): Promise<string> {
    return new TextDecoder("utf-8", { ignoreBOM: true }).decode(await this.readFile(path));
  }

  /** Writes a file, replacing it (`fs/writeFile`); text is written as UTF-8. */
  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    await (await this.#host.load("fs/writeFile", import("./fs-files.js"))).writeFile(this.#host, path, data);
  }

  /** Creates a directory, its parents too unless `recursive: false` (`fs/createDirectory`). */
  async createDirectory(path: string, options?: OptionsOf<T, "fs/createDirectory">): Promise<void> {
    await this.#host.request("fs/createDirectory", { ...options, path });
  }

  /** Whether the path is a file, a directory or a link, and its times (`fs/getMetadata`). */
  getMetadata(path: string): Promise<ResultIn<Requests<T>, "fs/getMetadata">> {
    return this.#host.request("fs/getMetadata", { path }) as Promise<ResultIn<Requests<T>, "fs/getMetadata">>;
  }

  /** A directory's direct entries (`fs/readDirectory`). */
  async readDirectory(path: string): Promise<ResultIn<Requests<T>, "fs/readDirectory"> extends { entries: infer E } ? E : never> {
    const result = await this.#host.request("fs/readDirectory", { path });
    if (!isRecord(result) || !Array.isArray(result.entries)) throw new ProtocolError("fs/readDirectory", "the result has no `entries` array");
    return result.entries as never;
  }

  /** Removes a file or a directory tree; a missing path is fine unless `force: false` (`fs/remove`). */
  async remove(path: string, options?: OptionsOf<T, "fs/remove">): Promise<void> {
    await this.#host.request("fs/remove", { ...options, path });
  }

  /** Copies a file, or a directory with `recursive: true` (`fs/copy`). */
  async copy(sourcePath: string, destinationPath: string, options?: Omit<OptionsOf<T, "fs/copy">, "sourcePath" | "destinationPath">): Promise<void> {
    await this.#host.request("fs/copy", { ...options, sourcePath, destinationPath });
  }

  /**
   * Changes under a file or directory, as codex reports them (`fs/changed`). Cold: each subscriber
   * gets a watch of its own (`fs/watch` with a fresh `watchId`), and unsubscribing ends it
   * (`fs/unwatch`). A watch codex refuses errors the Observable; it completes when the client closes.
   * After a reconnect the watch is set up again on the new connection (changes during the gap are
   * not reported).
   */
  watch(path: string): Observable<FsChange<T>> {
    // The watching is fs-watch's, loaded on demand (within fs/watch's timeout) by the first subscriber.
    return new Observable<FsChange<T>>((subscriber) => {
      let watch: Unsubscribable | undefined;
      let stopped = false;
      this.#host.load("fs/watch", import("./fs-watch.js")).then(
        (module) => {
          if (!stopped) watch = (module.watchChanges(this.#host, path) as Observable<FsChange<T>>).subscribe(subscriber);
        },
        (error: unknown) => subscriber.error(error),
      );
      return () => {
        stopped = true;
        watch?.unsubscribe();
      };
    });
  }
}
