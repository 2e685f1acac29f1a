// The client's default protocol is `@codex-rpc/protocol`'s stable one, as far as the client reads it.
import { protocol } from "@codex-rpc/protocol";
import { expect, it } from "vitest";
import { STABLE_PROTOCOL } from "../../src/client/stable-protocol.js";

it("has the version, flavor and notification methods of `protocol`, and loads the same validators", async () => {
  expect(STABLE_PROTOCOL.version).toBe(protocol.version);
  expect(STABLE_PROTOCOL.flavor).toBe("stable");
  expect(STABLE_PROTOCOL.serverNotificationMethods).toBe(protocol.serverNotificationMethods);
  const [ours, theirs] = await Promise.all([STABLE_PROTOCOL.loadValidators(), protocol.loadValidators()]);
  expect(Object.keys(ours.serverNotificationValidators)).toEqual(Object.keys(theirs.serverNotificationValidators));
});
