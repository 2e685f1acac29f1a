// command/exec and fs/* through the real codex app-server (offline, temp CODEX_HOME and workspace).
// What codex 0.169.0 does, measured: with `streamStdoutStderr` the output comes as
// `command/exec/outputDelta` notifications (base64, stdout/stderr tagged) before the reply, and the
// reply's stdout/stderr are empty; commands run under the user's sandbox policy (read-only here:
// writes fail with "Read-only file system" unless `sandboxPolicy` allows them); `terminate` ends
// with exit code 137, codex's own timeout with 124; `tty: true` needs `sandboxPolicy:
// dangerFullAccess` on this Linux (codex cannot start its sandbox helper for a PTY).
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { firstValueFrom, filter, toArray, timeout } from "rxjs";
import { afterEach, describe, expect, it } from "vitest";
import type { CommandOutputChunk } from "@codex-rpc/core";
import { OfflineCodex } from "./support/offline-codex.js";

let codex: OfflineCodex | undefined;
afterEach(async () => {
  await codex?.dispose();
  codex = undefined;
});

describe("client.exec against codex 0.169.0", () => {
  it("streams stdout and stderr as they are written, tagged and decoded, then the exit code", async () => {
    codex = await OfflineCodex.start();
    const started = Date.now();
    const command = codex.client.exec(["sh", "-c", "printf 'héllo '; sleep 0.4; printf wörld; printf oops >&2; exit 3"], { cwd: codex.workspace });
    const arrivals: { chunk: CommandOutputChunk; at: number }[] = [];
    for await (const chunk of command) arrivals.push({ chunk, at: Date.now() - started });
    const exit = await command.exit;
    expect(exit).toEqual({ exitCode: 3, stdout: "héllo wörld", stderr: "oops" });
    // Each stream in order; stdout and stderr are separate pipes, so their interleaving is not fixed.
    const texts = (stream: string) => arrivals.filter(({ chunk }) => chunk.stream === stream).map(({ chunk }) => chunk.text);
    expect(texts("stdout")).toEqual(["héllo ", "wörld"]);
    expect(texts("stderr")).toEqual(["oops"]);
    expect(arrivals[0]!.chunk).toMatchObject({ stream: "stdout", text: "héllo " });
    // The first chunk came before the sleep ended: streamed, not buffered.
    expect(arrivals[1]!.at - arrivals[0]!.at).toBeGreaterThanOrEqual(300);
    expect((await command.result).stdout).toBe("");
  });

  it("writes to stdin of `cat` (streamStdin) and closes it; the echo streams back", async () => {
    codex = await OfflineCodex.start();
    const command = codex.client.exec(["cat"], { cwd: codex.workspace, streamStdin: true });
    const first = firstValueFrom(command.output$);
    await command.write("line one\n");
    expect((await first).text).toBe("line one\n");
    await command.end("line two\n");
    expect(await command.exit).toEqual({ exitCode: 0, stdout: "line one\nline two\n", stderr: "" });
  });

  it("terminate() ends a long command (exit 137); a signal does the same", async () => {
    codex = await OfflineCodex.start();
    const command = codex.client.exec(["sleep", "30"], { cwd: codex.workspace });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await command.terminate();
    expect((await command.exit).exitCode).toBe(137);

    const controller = new AbortController();
    const aborted = codex.client.exec(["sleep", "30"], { cwd: codex.workspace, signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    expect((await aborted.exit).exitCode).toBe(137);
  });

  it("a PTY (tty: true) takes resize() and writes; stty sees the new size", async () => {
    codex = await OfflineCodex.start();
    const command = codex.client.exec(["sh", "-c", "stty size; read line; stty size; echo got $line"], {
      cwd: codex.workspace,
      tty: true,
      size: { cols: 80, rows: 24 },
      sandboxPolicy: { type: "dangerFullAccess" },
    });
    const output: string[] = [];
    command.output$.subscribe((chunk) => output.push(chunk.text));
    await firstValueFrom(
      command.output$.pipe(
        filter((chunk) => chunk.text.includes("24 80")),
        timeout(10_000),
      ),
    );
    await command.resize(100, 40);
    await command.write("yo\n");
    expect(await command.exit).toMatchObject({ exitCode: 0 });
    expect(output.join("")).toBe("24 80\r\nyo\r\n40 100\r\ngot yo\r\n");
  });

  it("codex's own timeout (timeoutMs) ends with 124; the sandbox is the user's policy (read-only here) unless sandboxPolicy says otherwise", async () => {
    codex = await OfflineCodex.start();
    expect((await codex.client.exec(["sleep", "5"], { cwd: codex.workspace, timeoutMs: 300 }).exit).exitCode).toBe(124);
    const readOnly = await codex.client.exec(["sh", "-c", "echo hi > out.txt"], { cwd: codex.workspace }).exit;
    expect(readOnly.exitCode).not.toBe(0);
    expect(readOnly.stderr).toContain("Read-only file system");
    const writable = await codex.client.exec(["sh", "-c", "echo hi > out.txt && cat out.txt"], {
      cwd: codex.workspace,
      sandboxPolicy: { type: "workspaceWrite" },
    }).exit;
    expect(writable).toEqual({ exitCode: 0, stdout: "hi\n", stderr: "" });
  });

  it("a processId already running is refused: exit rejects with the server's error and output$ completes", async () => {
    codex = await OfflineCodex.start();
    const first = codex.client.exec(["sleep", "1"], { cwd: codex.workspace, processId: "same" });
    const second = codex.client.exec(["sleep", "1"], { cwd: codex.workspace, processId: "same" });
    await expect(second.exit).rejects.toMatchObject({ code: "SERVER_ERROR", rpcCode: -32600, rpcMessage: 'duplicate active command/exec process id: "same"' });
    expect(await firstValueFrom(second.output$.pipe(toArray()))).toEqual([]);
    expect((await first.exit).exitCode).toBe(0);
  });
});

describe("client.fs against codex 0.169.0", () => {
  it("writes and reads back bytes and text, lists, stats, copies and removes", async () => {
    codex = await OfflineCodex.start({ client: { validate: true } });
    const { fs } = codex.client;
    const file = join(codex.workspace, "notes.txt");
    await fs.writeFile(file, "héllo ✓\n");
    expect(await fs.readTextFile(file)).toBe("héllo ✓\n");
    const bytes = new Uint8Array([0, 1, 2, 253, 254, 255]);
    await fs.writeFile(join(codex.workspace, "bytes.bin"), bytes);
    expect(await fs.readFile(join(codex.workspace, "bytes.bin"))).toEqual(bytes);
    expect(await fs.getMetadata(file)).toMatchObject({ isFile: true, isDirectory: false, isSymlink: false });
    await fs.createDirectory(join(codex.workspace, "a", "b"));
    await fs.copy(file, join(codex.workspace, "a", "b", "copy.txt"));
    expect(await fs.readTextFile(join(codex.workspace, "a", "b", "copy.txt"))).toBe("héllo ✓\n");
    const entries = await fs.readDirectory(codex.workspace);
    expect(entries.map((entry) => entry.fileName).sort()).toEqual(["a", "bytes.bin", "notes.txt"]);
    await fs.remove(join(codex.workspace, "a"));
    expect((await fs.readDirectory(codex.workspace)).map((entry) => entry.fileName).sort()).toEqual(["bytes.bin", "notes.txt"]);
    await expect(fs.readFile(join(codex.workspace, "missing"))).rejects.toMatchObject({ rpcCode: -32603, rpcMessage: expect.stringContaining("No such file") });
    await expect(fs.readFile("relative.txt")).rejects.toMatchObject({ rpcCode: -32600 });
  });

  it("watch(path) sees a file written (fs/changed with the path codex canonicalised)", async () => {
    codex = await OfflineCodex.start();
    const changes = codex.client.fs.watch(codex.workspace);
    const seen = firstValueFrom(
      changes.pipe(
        filter((change) => change.changedPaths.some((path) => path.endsWith("new.txt"))),
        timeout(10_000),
      ),
    );
    // fs/watch is answered before the write: give the request a moment to reach codex.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await writeFile(join(codex.workspace, "new.txt"), "x");
    const change = await seen;
    expect(change.watchId).toMatch(/^codex-rpc-watch-/);
    expect(change.changedPaths).toEqual([join(codex.workspace, "new.txt")]);
  });
});
