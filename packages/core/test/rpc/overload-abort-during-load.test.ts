// A request aborted while the overload retries load (on demand) rejects at once, not after the backoff
// (a stranger's review measured 3002 ms with a 3 s backoff).
import { expect, it, vi } from "vitest";
import { connect } from "../support/connect-to-fake.js";

const gate = vi.hoisted(() => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let loading!: () => void;
  const started = new Promise<void>((resolve) => (loading = resolve));
  return { open, opened, loading, started };
});

vi.mock("../../dist/rpc/overload-backoff.js", async (importOriginal) => {
  gate.loading();
  await gate.opened;
  return importOriginal();
});

it("an abort while the retries load rejects at once, not after the backoff", async () => {
  const { client } = await connect({ overload: { "thread/start": 1 } }, { overloadRetry: { initialDelayMs: 60_000, maxDelayMs: 60_000, random: () => 0.99 } });
  const controller = new AbortController();
  const started = client.request("thread/start", {} as never, { signal: controller.signal }).catch((error: unknown) => error);
  await gate.started;
  controller.abort();
  gate.open();
  // Before, it waited out the 60 s backoff (this test ran out of time).
  const error = await started;
  expect(error).toMatchObject({ code: "REQUEST_ABORTED" });
  await client.close();
}, 10_000);
