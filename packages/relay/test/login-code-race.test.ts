// Review 6 F10: the `--open` one-time code is in the browser opener's argv (/proc/<pid>/cmdline,
// readable by every local user), and the exchange can only check the Origin *header*, which a
// process outside a browser sets as it likes: whoever reads the code first gets the token. Not
// preventable once the code is in argv (README: use --console on a shared machine); what the relay
// does is tell: when the real page presents the code after someone else, the exchange is refused
// and the relay logs a warning (the CLI prints it even without --verbose).
import { request } from "node:http";
import { afterEach, expect, it } from "vitest";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { type RelayHandle, startRelay } from "../src/index.js";
import { LOGIN_CODE_PATH, LOGIN_CODE_REUSED_WARNING, LoginCodes } from "../src/login-codes.js";

let relay: RelayHandle | undefined;
afterEach(async () => void (await relay?.close()));

/** A POST from a process outside a browser: any headers it likes. */
function post(port: number, code: string, origin: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, path: LOGIN_CODE_PATH, method: "POST", headers: { "content-type": "application/json", origin } },
      (response) => {
        let body = "";
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify({ code }));
  });
}

it("a code exchanged first by another local process (forged Origin): the page's exchange is refused and the relay warns", async () => {
  const log: string[] = [];
  relay = await startRelay({ upstream: { transport: new FakeAppServer().transport }, log: (line) => log.push(line) });
  const own = `http://127.0.0.1:${relay.port}`;
  const code = relay.createLoginCode();
  // The race the README states: the forged exchange wins.
  const stolen = await post(relay.port, code, own);
  expect(stolen.status).toBe(200);
  expect(log.filter((line) => line === LOGIN_CODE_REUSED_WARNING)).toEqual([]);
  const page = await post(relay.port, code, own);
  expect(page.status).toBe(403);
  expect(log.filter((line) => line === LOGIN_CODE_REUSED_WARNING)).toHaveLength(1);
  // An unknown code is refused without the warning.
  await post(relay.port, "x".repeat(43), own);
  expect(log.filter((line) => line === LOGIN_CODE_REUSED_WARNING)).toHaveLength(1);
});

it("a used code is remembered as used only until it would have expired", () => {
  const codes = new LoginCodes(60_000);
  const code = codes.create(0);
  expect(codes.redeem(code, 10)).toBe(true);
  expect(codes.wasUsed(code, 59_999)).toBe(true);
  expect(codes.wasUsed(code, 60_000)).toBe(false);
  expect(codes.wasUsed(codes.create(0), 10)).toBe(false);
});
