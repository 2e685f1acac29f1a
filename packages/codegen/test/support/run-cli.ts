import { main } from "../../src/cli.js";

/** Runs the CLI in this process, collecting what it prints. */
export async function runCli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, stdout: out.join("\n"), stderr: err.join("\n") };
}
