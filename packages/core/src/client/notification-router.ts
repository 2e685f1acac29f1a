import { filter, map, type Observable } from "rxjs";
import type { ServerNotification, ServerNotificationMap } from "@codex-rpc/protocol";
import { ValidationFailedError, type ConnectionClosedError } from "../errors/errors.js";
import type { JsonRpcNotification } from "../framing/json-rpc-message.js";
import type { JsonRpcConnection } from "../rpc/json-rpc-connection.js";
import { threadIdOf } from "../session/notification-routing.js";
import { shapeCheckOf, type ShapeCheck } from "../session/notification-shape.js";
import type { ThreadListener } from "../session/session-host.js";
import { describeThrown, excerptOf } from "../util/describe-value.js";
import { Multicast } from "../util/multicast.js";
import { validationErrors, type ValidatorFunction, type ValidatorTables } from "./validator-tables.js";

/** After these a thread is no longer open here: it is not resumed after a reconnect. */
const THREAD_ENDINGS: ReadonlySet<string> = new Set(["thread/closed", "thread/archived", "thread/deleted"]);

/** What routing does with one known method, worked out once: the hot path makes one map lookup. */
interface MethodRoute {
  /** What the client reads of the params, checked; undefined when it reads nothing. */
  readonly check: ShapeCheck | undefined;
  readonly endsThread: boolean;
  readonly resolvesServerRequest: boolean;
}

/** One turn listening to its thread; `live` turns false when it stops, even during a delivery. */
interface ListenerEntry {
  readonly listener: ThreadListener;
  live: boolean;
}

/** What the router reads of the client it routes for. */
export interface NotificationRouterHost {
  /** The connection in use (a new one after each reconnect): where problems are reported. */
  readonly connection: JsonRpcConnection;
  readonly validators: ValidatorTables | undefined;
  /** A thread ended on the server (closed, archived, deleted): it is no longer resumed. */
  threadEnded(threadId: string): void;
}

/**
 * Routes every notification the server sends: to `notifications()` when this protocol version knows
 * its method (else to `unknownNotifications()`), and to the turns that listen to its thread.
 */
export class NotificationRouter {
  private readonly typedNotifications = new Multicast<ServerNotification>();
  private readonly untypedNotifications = new Multicast<JsonRpcNotification>();
  /**
   * Turns listening to their thread's notifications, by thread id: one map lookup per message. The
   * arrays are replaced, never changed: a listener that joins while a message is being delivered
   * gets the next one; one that leaves does not get the message under way (`live`).
   */
  private readonly threadListeners = new Map<string, readonly ListenerEntry[]>();
  /** The methods this protocol version knows. */
  private readonly routes = new Map<string, MethodRoute>();
  /**
   * The last method and thread looked up, and what was found. A string parsed from JSON is a new
   * string each time, so a map lookup hashes it anew; comparing it with the last one (a stream is
   * mostly deltas of one item) is several times cheaper.
   */
  private lastMethod: string | undefined;
  private lastRoute: MethodRoute | undefined;
  private lastThreadId: string | undefined;
  private lastListeners: readonly ListenerEntry[] | undefined;
  private validatorsLooked: ValidatorTables | undefined;
  private validatorMethod: string | undefined;
  private validator: ValidatorFunction | undefined;

  constructor(
    private readonly host: NotificationRouterHost,
    knownMethods: Iterable<string>,
  ) {
    for (const method of knownMethods) {
      this.routes.set(method, {
        check: shapeCheckOf(method),
        endsThread: THREAD_ENDINGS.has(method),
        resolvesServerRequest: method === "serverRequest/resolved",
      });
    }
  }

  /** Notifications, typed: all of them, or one method's params. Hot and shared. */
  notifications(method?: string): Observable<unknown> {
    if (method === undefined) return this.typedNotifications.observable;
    return this.typedNotifications.observable.pipe(
      filter((notification) => notification.method === method),
      map((notification) => notification.params),
    );
  }

  /** Notifications whose method this version's types do not know (a newer server's), untyped. */
  unknownNotifications(): Observable<JsonRpcNotification> {
    return this.untypedNotifications.observable;
  }

  /**
   * Routes one notification. A message that lacks what the client reads is reported once (as
   * `validation-failed` with validators, else `malformed-message`), still delivered on
   * `notifications()`, and kept out of turns and client state.
   */
  route(notification: JsonRpcNotification): void {
    // A method this version does not know goes to unknownNotifications() only, never to the typed
    // streams or a turn's events: they promise ServerNotification.
    const route = this.routeOf(notification.method);
    if (route === undefined) {
      this.untypedNotifications.next(notification);
      return;
    }
    const validators = this.host.validators;
    const reported = validators ? this.validate(notification, validators) : false;
    const malformed = route.check?.(notification.params);
    if (malformed !== undefined) {
      if (!reported)
        this.host.connection.report({ kind: "malformed-message", message: `${notification.method}: ${malformed}`, excerpt: excerptOf(notification) });
      this.typedNotifications.next(notification as ServerNotification);
      return;
    }
    if (route.endsThread) {
      const threadId = threadIdOf(notification.params);
      if (threadId !== undefined) this.host.threadEnded(threadId);
    }
    if (route.resolvesServerRequest) {
      const params = notification.params as ServerNotificationMap["serverRequest/resolved"]["params"];
      this.host.connection.withdrawServerRequest(params.requestId);
    }
    this.typedNotifications.next(notification as ServerNotification);
    const threadId = threadIdOf(notification.params);
    const listeners = threadId === undefined ? undefined : this.listenersOf(threadId);
    if (listeners) {
      for (let i = 0; i < listeners.length; i++) {
        const entry = listeners[i]!;
        // One that stopped listening while this message was being delivered does not get it.
        if (!entry.live) continue;
        try {
          entry.listener.notification(notification as ServerNotification);
        } catch (error) {
          // One turn tripping over a message must not keep it from the thread's other turns.
          this.host.connection.report({
            kind: "malformed-message",
            message: `${notification.method}: a turn could not use it: ${describeThrown(error)}`,
            excerpt: excerptOf(notification),
          });
        }
      }
    }
  }

  private routeOf(method: string): MethodRoute | undefined {
    if (method !== this.lastMethod) {
      this.lastMethod = method;
      this.lastRoute = this.routes.get(method);
    }
    return this.lastRoute;
  }

  private listenersOf(threadId: string): readonly ListenerEntry[] | undefined {
    if (threadId !== this.lastThreadId) {
      this.lastThreadId = threadId;
      this.lastListeners = this.threadListeners.get(threadId);
    }
    return this.lastListeners;
  }

  private setListeners(threadId: string, listeners: readonly ListenerEntry[]): void {
    if (listeners.length === 0) this.threadListeners.delete(threadId);
    else this.threadListeners.set(threadId, listeners);
    this.lastThreadId = undefined;
    this.lastListeners = undefined;
  }

  /** Reports a notification that fails its schema; returns whether it did. */
  private validate(notification: JsonRpcNotification, validators: ValidatorTables): boolean {
    // Looked up again only when the method (or the table) changes, like the route.
    if (validators !== this.validatorsLooked || notification.method !== this.validatorMethod) {
      this.validatorsLooked = validators;
      this.validatorMethod = notification.method;
      this.validator = validators.serverNotificationValidators[notification.method]?.params;
    }
    const validate = this.validator;
    if (!validate) return false;
    const errors = validationErrors(validate, notification.params);
    if (!errors) return false;
    // Still delivered: a message is never lost, and the mismatch is reported.
    const error = new ValidationFailedError(notification.method, "params", errors);
    this.host.connection.report({ kind: "validation-failed", message: error.message, excerpt: excerptOf(notification) });
    return true;
  }

  /**
   * Gives `listener` every notification of one thread, and the close error if the connection
   * closes first, until the returned disposer is called.
   */
  listenToThread(threadId: string, listener: ThreadListener): () => void {
    const entry: ListenerEntry = { listener, live: true };
    this.setListeners(threadId, [...(this.threadListeners.get(threadId) ?? []), entry]);
    return () => {
      if (!entry.live) return;
      entry.live = false;
      this.setListeners(
        threadId,
        (this.threadListeners.get(threadId) ?? []).filter((other) => other !== entry),
      );
    };
  }

  /** The connection closed: every listening turn gets the error and stops listening. */
  connectionClosed(error: ConnectionClosedError): void {
    const all = [...this.threadListeners.values()];
    this.threadListeners.clear();
    this.lastThreadId = undefined;
    this.lastListeners = undefined;
    for (const listeners of all)
      for (const entry of listeners) {
        if (!entry.live) continue;
        entry.live = false;
        entry.listener.closed(error);
      }
  }

  /** Closed for good: the streams complete. */
  complete(): void {
    this.typedNotifications.complete();
    this.untypedNotifications.complete();
  }

  /** How many turns listen for their thread's notifications (for leak checks). */
  get threadListenerCount(): number {
    let count = 0;
    for (const listeners of this.threadListeners.values()) count += listeners.length;
    return count;
  }

  /** How many subscribers `notifications()` and `unknownNotifications()` have together now (for leak checks). */
  get subscriberCount(): number {
    return this.typedNotifications.subscriberCount + this.untypedNotifications.subscriberCount;
  }
}
