import { filter, map, type Observable } from "rxjs";
import type { ServerNotification, ServerNotificationMap } from "@codex-rpc/protocol";
import { ValidationFailedError, type ConnectionClosedError } from "../errors/errors.js";
import type { JsonRpcNotification } from "../framing/json-rpc-message.js";
import type { JsonRpcConnection } from "../rpc/json-rpc-connection.js";
import { threadIdOf } from "../session/notification-routing.js";
import { malformedReason } from "../session/notification-shape.js";
import type { ThreadListener } from "../session/session-host.js";
import { describeThrown, excerptOf } from "../util/describe-value.js";
import { Multicast } from "../util/multicast.js";
import { validationErrors, type ValidatorTables } from "./validator-tables.js";

/** After these a thread is no longer open here: it is not resumed after a reconnect. */
const THREAD_ENDINGS: ReadonlySet<string> = new Set(["thread/closed", "thread/archived", "thread/deleted"]);

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
  /** Turns listening to their thread's notifications, by thread id: one map lookup per message. */
  private readonly threadListeners = new Map<string, Set<ThreadListener>>();

  constructor(
    private readonly host: NotificationRouterHost,
    private readonly knownNotifications: ReadonlySet<string>,
  ) {}

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
    if (!this.knownNotifications.has(notification.method)) {
      this.untypedNotifications.next(notification);
      return;
    }
    const reported = this.host.validators ? this.validate(notification) : false;
    const malformed = malformedReason(notification.method, notification.params);
    if (malformed !== undefined) {
      if (!reported)
        this.host.connection.report({ kind: "malformed-message", message: `${notification.method}: ${malformed}`, excerpt: excerptOf(notification) });
      this.typedNotifications.next(notification as ServerNotification);
      return;
    }
    if (THREAD_ENDINGS.has(notification.method)) {
      const threadId = threadIdOf(notification.params);
      if (threadId !== undefined) this.host.threadEnded(threadId);
    }
    if (notification.method === "serverRequest/resolved") {
      const params = notification.params as ServerNotificationMap["serverRequest/resolved"]["params"];
      this.host.connection.withdrawServerRequest(params.requestId);
    }
    this.typedNotifications.next(notification as ServerNotification);
    const threadId = threadIdOf(notification.params);
    const listeners = threadId === undefined ? undefined : this.threadListeners.get(threadId);
    if (listeners) {
      for (const listener of listeners) {
        try {
          listener.notification(notification as ServerNotification);
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

  /** Reports a notification that fails its schema; returns whether it did. */
  private validate(notification: JsonRpcNotification): boolean {
    const validate = this.host.validators?.serverNotificationValidators[notification.method]?.params;
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
    let listeners = this.threadListeners.get(threadId);
    if (!listeners) {
      listeners = new Set();
      this.threadListeners.set(threadId, listeners);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.threadListeners.get(threadId) === listeners) this.threadListeners.delete(threadId);
    };
  }

  /** The connection closed: every listening turn gets the error and stops listening. */
  connectionClosed(error: ConnectionClosedError): void {
    for (const listeners of [...this.threadListeners.values()]) for (const listener of [...listeners]) listener.closed(error);
    this.threadListeners.clear();
  }

  /** Closed for good: the streams complete. */
  complete(): void {
    this.typedNotifications.complete();
    this.untypedNotifications.complete();
  }

  /** How many turns listen for their thread's notifications (for leak checks). */
  get threadListenerCount(): number {
    let count = 0;
    for (const listeners of this.threadListeners.values()) count += listeners.size;
    return count;
  }

  /** How many subscribers `notifications()` and `unknownNotifications()` have together now (for leak checks). */
  get subscriberCount(): number {
    return this.typedNotifications.subscriberCount + this.untypedNotifications.subscriberCount;
  }
}
