import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as stable from "@codex-rpc/protocol";
import * as experimental from "@codex-rpc/protocol/experimental";
import { loadValidators as loadStable } from "@codex-rpc/protocol/validators";
import { loadValidators as loadExperimental } from "@codex-rpc/protocol/experimental/validators";

const UNIONS = {
  ClientRequest: "CLIENT_REQUEST_METHODS",
  ServerRequest: "SERVER_REQUEST_METHODS",
  ServerNotification: "SERVER_NOTIFICATION_METHODS",
  ClientNotification: "CLIENT_NOTIFICATION_METHODS",
} as const;

/** The methods a vendored schema bundle lists in one of its root unions. */
function schemaMethods(flavor: "stable" | "experimental", union: keyof typeof UNIONS): string[] {
  const file = fileURLToPath(new URL(`../../../schemas/codex/0.169.0/${flavor}/codex_app_server_protocol.schemas.json`, import.meta.url));
  const bundle = JSON.parse(readFileSync(file, "utf8"));
  const members: { properties: { method: { enum: string[] } } }[] = bundle.definitions[union].oneOf;
  return members.map((member) => member.properties.method.enum[0] as string);
}

describe.each([
  { flavor: "stable" as const, protocol: stable, load: loadStable },
  { flavor: "experimental" as const, protocol: experimental, load: loadExperimental },
])("$flavor: every method is mapped", ({ flavor, protocol, load }) => {
  it("the runtime method arrays list exactly the schemas' methods, in order", () => {
    const counts: string[] = [];
    for (const [union, array] of Object.entries(UNIONS)) {
      const fromSchema = schemaMethods(flavor, union as keyof typeof UNIONS);
      expect(protocol[array as keyof typeof protocol]).toEqual(fromSchema);
      counts.push(`${fromSchema.length} ${union}`);
    }
    console.log(`${flavor}: ${counts.join(", ")}`);
    expect(protocol.PROTOCOL_VERSION).toBe("0.169.0");
    expect(protocol.PROTOCOL_FLAVOR).toBe(flavor);
  });

  it("every method has a params validator, and every request a result validator", async () => {
    const validators = await load();
    const tables = {
      ClientRequest: validators.clientRequestValidators,
      ServerRequest: validators.serverRequestValidators,
      ServerNotification: validators.serverNotificationValidators,
      ClientNotification: validators.clientNotificationValidators,
    };
    for (const [union, table] of Object.entries(tables)) {
      const methods = schemaMethods(flavor, union as keyof typeof UNIONS);
      expect(Object.keys(table)).toEqual(methods);
      for (const entry of Object.values(table) as { params: unknown; result?: unknown }[]) {
        expect(typeof entry.params).toBe("function");
        if (union.endsWith("Request")) expect(typeof entry.result).toBe("function");
        else expect("result" in entry).toBe(false);
      }
    }
  });
});

describe("validators", () => {
  it("check Rust integer widths, params that may be left out, and messages without params", async () => {
    const { clientRequestValidators, serverNotificationValidators, clientNotificationValidators } = await loadStable();
    const delta = serverNotificationValidators["item/agentMessage/delta"].params;
    const ok = { delta: "hi", itemId: "i", threadId: "t", turnId: "u" };
    expect(delta(ok)).toBe(true);
    expect(delta({ ...ok, delta: 5 })).toBe(false);
    expect(delta.errors?.[0]).toMatchObject({ instancePath: "/delta", keyword: "type" });

    const tokenUsage = serverNotificationValidators["thread/tokenUsage/updated"].params;
    const breakdown = { cachedInputTokens: 0, inputTokens: 1, outputTokens: 2, reasoningOutputTokens: 0, totalTokens: 3 };
    const usage = { threadId: "t", turnId: "u", tokenUsage: { last: breakdown, total: breakdown, modelContextWindow: null } };
    expect(tokenUsage(usage), JSON.stringify(tokenUsage.errors)).toBe(true);
    expect(tokenUsage({ ...usage, tokenUsage: { ...usage.tokenUsage, total: { ...breakdown, totalTokens: 2 ** 70 } } })).toBe(false);
    // A whole number past int64: the type check passes, the format (width) check does not.
    expect(tokenUsage.errors?.[0]).toMatchObject({ keyword: "format", instancePath: "/tokenUsage/total/totalTokens" });

    const rateLimits = clientRequestValidators["account/rateLimits/read"].params;
    expect(rateLimits(undefined)).toBe(true);
    const logout = clientRequestValidators["account/logout"].params;
    expect(logout(undefined)).toBe(true);
    expect(logout({})).toBe(false);
    expect(logout.errors?.[0]?.message).toBe("must be null");
    const initialized = clientNotificationValidators.initialized.params;
    expect(initialized(undefined)).toBe(true);
    expect(initialized({})).toBe(false);
    expect(initialized.errors?.[0]?.message).toBe("must have no params");
  });
});
