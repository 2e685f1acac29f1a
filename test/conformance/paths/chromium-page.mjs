// The case script inside Chromium (bundled by chromium-relay.mjs with esbuild for the browser):
// @codex-rpc/core and the WebSocket transport's browser entry, reaching each case's server through
// a relay. What a page cannot do itself goes to the Node side, on the page's own origin: starting a
// relay in front of a fresh app-server (/relays), and — synchronously, as cases.mjs calls them —
// SIGKILLing a process and asking whether it still exists (/kill, /exists; a synchronous XHR).
import { openRelayTransport } from "@codex-rpc/websocket";
import { runConformanceCases } from "../cases.mjs";

/** @param {string} route @param {unknown} body */
function postNow(route, body) {
  const request = new XMLHttpRequest();
  request.open("POST", route, false);
  request.setRequestHeader("content-type", "application/json");
  request.send(JSON.stringify(body));
  const answer = JSON.parse(request.responseText);
  if (request.status !== 200) throw new Error(`${route}: ${answer.error}`);
  return answer;
}

const config = await (await fetch("/config")).json();
try {
  await runConformanceCases({
    config,
    async startServer(scope) {
      const response = await fetch("/relays", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scope }) });
      const relay = await response.json();
      if (!response.ok) throw new Error(`/relays: ${relay.error}`);
      const transport = await openRelayTransport({ url: relay.url, token: relay.token });
      return { transport, pid: relay.pid };
    },
    killProcess: (pid) => void postNow("/kill", { pid }),
    processExists: (pid) => postNow("/exists", { pid }).exists,
  });
} finally {
  console.log("conformance-page-done");
}
