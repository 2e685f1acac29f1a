/**
 * ANSI escape sequences: CSI (colours, cursor moves: `ESC [ … letter`), OSC (titles, hyperlinks:
 * `ESC ] … BEL` or `ESC ] … ESC \`), and the remaining two-character escapes. codex colours its
 * tracing output even when stderr is a pipe.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences start with control characters (ESC, CSI, BEL)
const ANSI_ESCAPE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])|\u009b[0-?]*[ -/]*[@-~]/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI_ESCAPE, "");
}
