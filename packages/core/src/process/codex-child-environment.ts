/**
 * What codex needs from its parent's environment to work, and nothing that is a credential: where
 * it lives (HOME, CODEX_HOME, the user), how it runs commands (PATH, SHELL, temp dirs, locale,
 * time zone, terminal), how it reaches the network (proxies, extra CA certificates), and what
 * Windows programs cannot start without.
 */
export const CODEX_ENVIRONMENT_NEEDS: readonly string[] = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "TMPDIR",
  "TMP",
  "TEMP",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  "TERM",
  "CODEX_HOME",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "ALL_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "all_proxy",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "SystemRoot",
  "windir",
  "USERPROFILE",
  "APPDATA",
  "LOCALAPPDATA",
  "ProgramData",
  "ComSpec",
  "PATHEXT",
];

/**
 * The environment a codex child process gets: exactly `passed` plus the parent's values of
 * `CODEX_ENVIRONMENT_NEEDS` (a name in `passed` wins; `NAME: undefined` withholds it). Everything
 * else of the parent's — API keys, cloud credentials, tokens — stays out: codex runs commands a
 * model chose, and they see this environment. `lookup` reads one parent variable (undefined when
 * unset or not readable, e.g. without Deno's `--allow-env`).
 */
export function codexChildEnvironment(
  lookup: (name: string) => string | undefined,
  passed: Readonly<Record<string, string | undefined>> = {},
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const name of CODEX_ENVIRONMENT_NEEDS) {
    if (name in passed) continue;
    const value = lookup(name);
    if (value !== undefined) environment[name] = value;
  }
  for (const [name, value] of Object.entries(passed)) if (value !== undefined) environment[name] = value;
  return environment;
}
