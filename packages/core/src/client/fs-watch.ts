// `client.fs.watch(path)` at work: loaded on demand (import()) by a watch's first subscriber.
import { Observable } from "rxjs";
import { isRecord } from "../util/is-record.js";
import { clientChosenId, type ApiHost } from "./api-host.js";

/**
 * The changes under `path`: `fs/changed` of a watch of its own (`fs/watch` with a fresh
 * `watchId`) until unsubscribed (`fs/unwatch`), asked for again on the new connection after a
 * reconnect.
 */
export function watchChanges(host: ApiHost, path: string): Observable<unknown> {
  return new Observable<unknown>((subscriber) => {
    const watchId = clientChosenId("codex-rpc-watch");
    let watching = false;
    let stopped = false;
    const unwatch = () => void host.request("fs/unwatch", { watchId }).catch(() => undefined);
    const changes = host.notifications("fs/changed").subscribe({
      next: (change) => {
        if (isRecord(change) && change.watchId === watchId) subscriber.next(change);
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    });
    const start = () => {
      host.request("fs/watch", { path, watchId }).then(
        () => {
          watching = true;
          if (stopped) unwatch();
        },
        (error: unknown) => subscriber.error(error),
      );
    };
    start();
    // A watch lives on one connection: after a reconnect it is asked for again.
    let dropped = false;
    const reconnects = host.state$.subscribe((state) => {
      if (state === "reconnecting") {
        dropped = true;
        watching = false;
      } else if (state === "open" && dropped && !stopped) {
        dropped = false;
        start();
      }
    });
    return () => {
      stopped = true;
      changes.unsubscribe();
      reconnects.unsubscribe();
      if (watching) unwatch();
    };
  });
}
