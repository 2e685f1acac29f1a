// What the orchestrator tells a case script, as JSON in the CONFORMANCE_CONFIG environment variable
// (each path entry reads it with its runtime's own API).

/**
 * @typedef {object} ConformanceConfig
 * @property {string} controlUrl The orchestrator's control endpoint (see control-server.ts).
 * @property {string} codexPath The codex binary every stdio path spawns.
 * @property {string} workspace The threads' working directory.
 * @property {Record<string, { env: Record<string, string> }>} scopes Per case: the server's whole environment (its own CODEX_HOME, so its own mock model).
 * @property {string} [protocolModuleUrl] A `file:` URL of a generated protocol module (`<dir>/stable/index.js`):
 *   its `protocol` export is passed to every `CodexClient.connect`. Absent: the client's default, `@codex-rpc/protocol`.
 * @property {{ server: string, protocol: string }} versions The codex version `codexPath` runs and the one the
 *   client's protocol was generated from: the version-check case and every connection check against them.
 */

export const CONFORMANCE_CONFIG_VARIABLE = "CONFORMANCE_CONFIG";

/** @param {string | undefined} text @returns {ConformanceConfig} */
export function parseConformanceConfig(text) {
  if (!text) throw new Error(`${CONFORMANCE_CONFIG_VARIABLE} is not set: run this through test/conformance.runtime.test.ts`);
  return JSON.parse(text);
}
