import { firstValueFrom, Subject, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { CodexCommand } from "../../src/session/codex-command.js";

/**
 * A CodexCommand over a hand-driven host: once `command/exec` went out (`started`: its runner loads
 * on demand first), push deltas, then settle the reply.
 */
function scripted() {
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const output = new Subject<unknown>();
  const requests: { method: string; params: unknown }[] = [];
  let settle!: (result: unknown) => void;
  let fail!: (error: unknown) => void;
  const command = new CodexCommand("p1", {
    params: { processId: "p1" },
    signal: undefined,
    notifications: () => output,
    request: (method, params) => {
      if (method !== "command/exec") return Promise.resolve(void requests.push({ method, params }));
      markStarted();
      return new Promise((resolve, reject) => ((settle = resolve), (fail = reject)));
    },
    load: (_method, load) => load,
    report: () => {},
  });
  const delta = (stream: string, bytes: Uint8Array | string, capReached = false) =>
    output.next({ processId: "p1", stream, deltaBase64: Buffer.from(bytes).toString("base64"), capReached });
  return { command, output, started, delta, settle: (result: unknown) => settle(result), fail: (error: unknown) => fail(error), requests };
}

describe("CodexCommand", () => {
  it("decodes UTF-8 split across chunks per stream, keeps output that came before the first subscriber, and completes with the reply", async () => {
    const { command, started, delta, settle } = scripted();
    await started;
    const euro = Buffer.from("€");
    delta("stdout", euro.subarray(0, 1));
    delta("stderr", "err");
    delta("stdout", Buffer.concat([euro.subarray(1), Buffer.from("!")]));
    const all = firstValueFrom(command.output$.pipe(toArray()));
    delta("stdout", "x", true);
    settle({ exitCode: 2, stdout: "", stderr: "" });
    expect((await all).map((chunk) => [chunk.stream, chunk.text, chunk.capReached])).toEqual([
      ["stdout", "", false],
      ["stderr", "err", false],
      ["stdout", "€!", false],
      ["stdout", "x", true],
    ]);
    expect(await command.exit).toEqual({ exitCode: 2, stdout: "€!x", stderr: "err" });
  });

  it("is an async iterable of the same chunks", async () => {
    const { command, started, delta, settle } = scripted();
    await started;
    delta("stdout", "a");
    delta("stdout", "b");
    settle({ exitCode: 0, stdout: "", stderr: "" });
    const texts: string[] = [];
    for await (const chunk of command) texts.push(chunk.text);
    expect(texts).toEqual(["a", "b"]);
  });

  it("write, end, resize and terminate send their requests with the processId (stdin as base64)", async () => {
    const { command, requests } = scripted();
    await command.write("hi\n");
    await command.end(new Uint8Array([0xff]));
    await command.end();
    await command.resize(100, 40);
    await command.terminate();
    expect(requests).toEqual([
      { method: "command/exec/write", params: { processId: "p1", deltaBase64: "aGkK" } },
      { method: "command/exec/write", params: { processId: "p1", closeStdin: true, deltaBase64: "/w==" } },
      { method: "command/exec/write", params: { processId: "p1", closeStdin: true } },
      { method: "command/exec/resize", params: { processId: "p1", size: { cols: 100, rows: 40 } } },
      { method: "command/exec/terminate", params: { processId: "p1" } },
    ]);
  });

  it("a failed start rejects exit and result and completes output$", async () => {
    const { command, started, fail } = scripted();
    await started;
    fail(new Error("refused"));
    await expect(command.exit).rejects.toThrow("refused");
    await expect(command.result).rejects.toThrow("refused");
    expect(await firstValueFrom(command.output$.pipe(toArray()))).toEqual([]);
  });

  it("skips a delta that is not base64 or not an object", async () => {
    const { command, started, output, delta, settle } = scripted();
    await started;
    output.next(null);
    output.next({ processId: "p1", stream: "stdout", deltaBase64: "not base64!" });
    delta("stdout", "ok");
    settle({ exitCode: 0, stdout: "buffered", stderr: "" });
    expect(await command.exit).toEqual({ exitCode: 0, stdout: "okbuffered", stderr: "" });
  });
});
