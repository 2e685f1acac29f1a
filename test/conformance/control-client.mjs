// The case script's side of the orchestrator's control endpoint (control-server.ts), over fetch,
// which Node 20, Deno and Bun all have.

/** @typedef {import("./conformance-config.mjs").ConformanceConfig} ConformanceConfig */

async function post(config, route, body) {
  const response = await fetch(new URL(route, config.controlUrl), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`control ${route}: ${answer.error ?? response.status}`);
  return answer;
}

/** Resolves once the scope's mock model has received `count` requests (the turn is then mid-stream). */
export function waitForModelRequests(config, scope, count) {
  return post(config, "/model-requests/wait", { scope, count });
}

/**
 * Has the orchestrator start `codex app-server --listen` for the scope: `ws://127.0.0.1:0` → `{ url, pid }`,
 * `unix://…` → `{ socketPath, pid }`. The orchestrator kills whatever is left at the end.
 * @param {ConformanceConfig} config
 * @param {string} scope
 * @param {"ws" | "unix"} listen
 * @returns {Promise<{ pid: number, url?: string, socketPath?: string }>}
 */
export function startListeningServer(config, scope, listen) {
  return post(config, "/app-servers", { scope, listen });
}
