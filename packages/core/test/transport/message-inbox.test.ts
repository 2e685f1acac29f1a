import { describe, expect, it } from "vitest";
import { of } from "rxjs";
import { listenDirectly, MessageInbox } from "../../src/transport/message-inbox.js";

describe("MessageInbox", () => {
  it("replays what came before the first subscriber, then delivers live, and completes later subscribers at once", () => {
    const inbox = new MessageInbox<number>();
    inbox.deliver(1);
    inbox.deliver(2);
    const seen: number[] = [];
    inbox.messages$.subscribe((value) => seen.push(value));
    inbox.deliver(3);
    inbox.complete();
    let completed = false;
    inbox.messages$.subscribe({ complete: () => (completed = true) });
    expect(seen).toEqual([1, 2, 3]);
    expect(completed).toBe(true);
  });
});

describe("listenDirectly", () => {
  it("listens to an inbox with no subscriber in between: the backlog, then live messages, until it stops", () => {
    const inbox = new MessageInbox<string>();
    inbox.deliver("early");
    const seen: string[] = [];
    const listening = listenDirectly(inbox.messages$, (message) => seen.push(message));
    inbox.deliver("live");
    listening.unsubscribe();
    inbox.deliver("after");
    expect(seen).toEqual(["early", "live"]);
  });

  it("hears nothing more once it stopped, even during a delivery that already holds it", () => {
    const inbox = new MessageInbox<string>();
    const seen: string[] = [];
    inbox.messages$.subscribe(() => second.unsubscribe());
    const second = listenDirectly(inbox.messages$, (message) => seen.push(message));
    inbox.deliver("one");
    expect(seen).toEqual([]);
  });

  it("subscribes as usual to any other Observable", () => {
    const seen: number[] = [];
    listenDirectly(of(1, 2), (value) => seen.push(value));
    expect(seen).toEqual([1, 2]);
  });
});

describe("listenDirectly and completion", () => {
  it("a direct listener gets nothing once the inbox completed, even in the delivery that completed it", () => {
    const inbox = new MessageInbox<number>();
    const got: string[] = [];
    inbox.messages$.subscribe({
      next: () => {
        got.push("first");
        inbox.complete();
      },
      complete: () => got.push("first complete"),
    });
    listenDirectly(inbox.messages$, (message) => got.push(`direct ${message}`));
    inbox.deliver(1);
    inbox.deliver(2);
    expect(got).toEqual(["first", "first complete"]);
  });
});
