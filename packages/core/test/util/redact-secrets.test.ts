import { describe, expect, it } from "vitest";
import { redactDeep, redactSecrets } from "../../src/util/redact-secrets.js";

describe("redactSecrets", () => {
  it.each([
    [
      "a reqwest header dump",
      'request headers: {"authorization": "Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl", "accept": "text/event-stream"}',
      'request headers: {"authorization": "[REDACTED]", "accept": "text/event-stream"}',
    ],
    ["an HTTP header line", "Authorization: Bearer sk-proj-AbCdEfGhIjKlMnOpQrStUvWx", "Authorization: [REDACTED]"],
    ["a Basic auth header", "> Proxy-Authorization: Basic dXNlcjpwYXNzd29yZA==", "> Proxy-Authorization: [REDACTED]"],
    ["a bearer token in prose", "retrying with Bearer abcdef0123456789abcdef after 401", "retrying with Bearer [REDACTED] after 401"],
    [
      "an OpenAI key in an error",
      "Error: Incorrect API key provided: sk-proj-Zx9_8YwVu-7TsRqPoNmLkJiHgFeDcBa. You can find your API key at https://platform.openai.com",
      "Error: Incorrect API key provided: [REDACTED]. You can find your API key at https://platform.openai.com",
    ],
    ["a legacy OpenAI key", "using key sk-abcdefghijklmnopqrstuvwxyz012345 for requests", "using key [REDACTED] for requests"],
    ["env-style assignment", "OPENAI_API_KEY=sk-live-1234567890abcdefghij codex app-server", "OPENAI_API_KEY=[REDACTED] codex app-server"],
    [
      "query-string tokens",
      "GET https://auth.example.com/cb?code=abc&access_token=ya29.a0AfH6SMB&state=xyz",
      "GET https://auth.example.com/cb?code=abc&access_token=[REDACTED]&state=xyz",
    ],
    [
      "JSON credential fields",
      '{"access_token":"at-123456","refresh_token":"rt-abcdef","id_token":"eyJabc","token_type":"Bearer","expires_in":3600}',
      '{"access_token":"[REDACTED]","refresh_token":"[REDACTED]","id_token":"[REDACTED]","token_type":"Bearer","expires_in":3600}',
    ],
    [
      "camelCase keys",
      '{"apiKey": "abc123", "clientSecret": "s3cr3t!", "accessToken": "tok"}',
      '{"apiKey": "[REDACTED]", "clientSecret": "[REDACTED]", "accessToken": "[REDACTED]"}',
    ],
    ["key: value logs", "login ok user=alice password: hunter2 mfa=true", "login ok user=alice password: [REDACTED] mfa=true"],
    ["header-style api key", "x-api-key: 9f8e7d6c5b4a", "x-api-key: [REDACTED]"],
    [
      "JSON escaped inside a logged string",
      'body="{\\"api_key\\":\\"abc-123\\",\\"model\\":\\"gpt\\"}"',
      'body="{\\"api_key\\":\\"[REDACTED]\\",\\"model\\":\\"gpt\\"}"',
    ],
    ["a Rust Debug Option", 'AuthDotJson { token: Some("tok-abcdef"), account: None }', 'AuthDotJson { token: Some("[REDACTED]"), account: None }'],
    ["single-quoted values", "secret='p@ss word'", "secret='[REDACTED]'"],
    [
      "a tracing line with ANSI-free fields",
      "2026-11-22T16:24:20Z ERROR codex_core::auth: refresh failed refresh_token=rt_0123456789 status=401",
      "2026-11-22T16:24:20Z ERROR codex_core::auth: refresh failed refresh_token=[REDACTED] status=401",
    ],
  ])("%s", (_name, input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it.each([
    ["token counts", '{"usage":{"input_tokens":120,"output_tokens":45,"max_tokens":4096}}'],
    ["token_count fields", "token_count=15 tokens_per_second=33.2"],
    ["prose about tokens", "the bearer token was missing; check your API key settings"],
    ["words containing sk-", "task-queue ask-user disk-usage"],
    ["an ordinary log line", "2026-11-22T16:24:20Z INFO codex_app_server: listening on stdio"],
  ])("leaves %s alone", (_name, input) => {
    expect(redactSecrets(input)).toBe(input);
  });

  it("is idempotent", () => {
    const once = redactSecrets('Authorization: Bearer abcdefghijkl {"password":"x"} sk-abcdefghijklmnopqrstu');
    expect(redactSecrets(once)).toBe(once);
  });
});

// The secrets below are fakes shaped like real ones (AWS's own documentation examples among them).
const PEM_BODY = ["MIIEowIBAAKCAQEA0FAKEfakeFAKEfakeFAKEfakeFAKEfakeFAKEfakeFAKEfake0", "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2H1g0FAKEfakeFAKEfakeFAKEfak1"];

describe("redactSecrets: one pattern at a time, each with a near miss it leaves alone", () => {
  it.each([
    [
      "an AWS secret key in a credentials file",
      "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
      "aws_secret_access_key = [REDACTED]",
      "aws_access_key_rotation = 90",
    ],
    [
      "a bare AWS secret after AWS_SECRET_ACCESS_KEY=",
      "env AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY AWS_REGION=us-east-1",
      "env AWS_SECRET_ACCESS_KEY=[REDACTED] AWS_REGION=us-east-1",
      "env AWS_REGION=us-east-1 sort_key=created_at",
    ],
    [
      "AWS secret keys in STS JSON",
      '{"AccessKeyId": "ASIAIOSFODNN7EXAMPLE", "SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}',
      '{"AccessKeyId": "[REDACTED]", "SecretAccessKey": "[REDACTED]"}',
      '{"AccessKeyId": "not-an-id", "Expiration": "2026-11-22T16:24:20Z"}',
    ],
    [
      "an AWS access key id",
      "signing with AKIAIOSFODNN7EXAMPLE in us-east-1",
      "signing with [REDACTED] in us-east-1",
      "see AKIA docs: AKIAIOSFODNN7EX is too short",
    ],
    [
      "a classic GitHub token in prose",
      "push failed for ghp_FAKEfake0123456789FAKEfake0123456789 (401)",
      "push failed for [REDACTED] (401)",
      "set ghp_token_name in the config",
    ],
    ["a GitHub app token", "token ghs_FAKEfake0123456789FAKEfake012345 expired", "token [REDACTED] expired", "token ghs_short expired"],
    [
      "a fine-grained GitHub token",
      "using github_pat_11FAKE0000_fakefakefakefakefakefakefake0123456789 now",
      "using [REDACTED] now",
      "see the github_pat_ prefix",
    ],
    [
      "user:password in a postgres URL",
      "connect to postgres://admin:FakePassw0rd-123@db.example.com:5432/app failed",
      "connect to postgres://[REDACTED]@db.example.com:5432/app failed",
      "connect to postgres://db.example.com:5432/app failed",
    ],
    [
      "a token as the user of an https URL",
      "git fetch https://x-access-token:FAKEfake0123@github.com/o/r.git",
      "git fetch https://[REDACTED]@github.com/o/r.git",
      "mail alice@example.com or see https://example.com/@alice",
    ],
    ["user:password in a redis URL", "redis://:FakeRedisPass@cache:6379/0 down", "redis://[REDACTED]@cache:6379/0 down", "redis://cache:6379/0 down"],
    ["a Cookie header", "> Cookie: session=FAKEsession0123; theme=dark", "> Cookie: [REDACTED]", "the cookie banner: accept cookies"],
    [
      "a Set-Cookie header",
      "< set-cookie: sid=FAKEsid0123; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT; HttpOnly",
      "< set-cookie: [REDACTED]",
      "set_cookie_count=2 cookies_enabled=true",
    ],
    [
      "a cookie in JSON",
      '{"cookie": "sid=FAKEsid0123; theme=dark", "accept": "*/*"}',
      '{"cookie": "[REDACTED]", "accept": "*/*"}',
      '{"cookies_enabled": "yes"}',
    ],
    [
      "a PEM private key across lines",
      `key:\n-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY.join("\n")}\nAbCd==\n-----END RSA PRIVATE KEY-----\nloaded`,
      "key:\n-----BEGIN RSA PRIVATE KEY-----[REDACTED]-----END RSA PRIVATE KEY-----\nloaded",
      "-----BEGIN PUBLIC KEY----- is not secret",
    ],
    [
      "a PEM private key cut off after part of its body",
      `parse error near -----BEGIN PRIVATE KEY-----\\n${PEM_BODY[0]}\\n${PEM_BODY[1]!.slice(0, 20)} …[cut]`,
      "parse error near -----BEGIN PRIVATE KEY-----[REDACTED]…[cut]",
      "-----BEGIN CERTIFICATE-----",
    ],
    ["a PEM body line on its own (stderr, line by line)", `  ${PEM_BODY[0]}`, "  [REDACTED]", "da39a3ee5e6b4b0d3255bfef95601890afd80709da39a3ee"],
    [
      "a Slack bot token",
      "posting with xoxb-000000000000-0000000000000-FAKEfakeFAKEfake0123 to #ops",
      "posting with [REDACTED] to #ops",
      "xoxo-hugs and xoxb- prefixes",
    ],
    ["a JWT", "id eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJmYWtlLXVzZXIifQ.ZmFrZS1zaWduYXR1cmU rejected", "id [REDACTED] rejected", "header eyJhbGciOiJIUzI1NiJ9 alone"],
    ["an unsigned JWT", "alg none: eyJhbGciOiJub25lIn0.eyJzdWIiOiJmYWtlIn0.", "alg none: [REDACTED]", "eyJ.eyJ.x too short"],
  ])("%s", (_name, input, expected, nearMiss) => {
    expect(redactSecrets(input)).toBe(expected);
    expect(redactSecrets(expected)).toBe(expected);
    expect(redactSecrets(nearMiss)).toBe(nearMiss);
  });

  it("redacts PEM keys with CRLF line ends and inside JSON (escaped newlines)", () => {
    const crlf = `loaded\r\n-----BEGIN EC PRIVATE KEY-----\r\n${PEM_BODY.join("\r\n")}\r\n-----END EC PRIVATE KEY-----\r\ndone`;
    expect(redactSecrets(crlf)).toBe("loaded\r\n-----BEGIN EC PRIVATE KEY-----[REDACTED]-----END EC PRIVATE KEY-----\r\ndone");
    const json = JSON.stringify({ type: "service_account", private_key: `-----BEGIN PRIVATE KEY-----\n${PEM_BODY.join("\n")}\n-----END PRIVATE KEY-----\n` });
    expect(redactSecrets(json)).toBe('{"type":"service_account","private_key":"[REDACTED]"}');
  });

  it("stays fast on long hostile input", () => {
    const started = performance.now();
    redactSecrets(`${"x ".repeat(200_000)}https://${"a".repeat(100_000)}`);
    redactSecrets("-----BEGIN PRIVATE KEY-----".repeat(5_000));
    redactSecrets(`${"A1b".repeat(13)}\n`.repeat(20_000));
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe("redactDeep", () => {
  it("copies a JSON value with every string redacted and credential-named fields hidden", () => {
    const data = JSON.parse(
      '{"detail":"bad key sk-proj-FAKEfakeFAKEfake0123","password":"hunter2","max_tokens":5,"headers":[{"Authorization":"Bearer FAKEfake0123456789"}],"__proto__":{"token":"x"}}',
    );
    const copy = redactDeep(data) as Record<string, unknown>;
    expect(JSON.stringify(copy)).toBe(
      '{"detail":"bad key [REDACTED]","password":"[REDACTED]","max_tokens":5,"headers":[{"Authorization":"[REDACTED]"}],"__proto__":{"token":"[REDACTED]"}}',
    );
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(data.password).toBe("hunter2"); // the original is untouched
  });

  it("never throws: cycles, BigInt, symbols, functions, throwing getters, null prototypes, revoked proxies", () => {
    const value: Record<string, unknown> = {
      n: 1n,
      s: Symbol("sk-proj-FAKEfakeFAKEfake0123"),
      f: () => 1,
      bare: Object.assign(Object.create(null), { k: "ok" }),
    };
    value.self = value;
    Object.defineProperty(value, "getter", {
      enumerable: true,
      get: () => {
        throw new Error("no");
      },
    });
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    value.proxy = proxy;
    expect(redactDeep(value)).toEqual({
      n: "1",
      s: "Symbol([REDACTED])",
      f: undefined,
      bare: { k: "ok" },
      self: "[CIRCULAR]",
      getter: "[UNREADABLE]",
      proxy: "[UNREADABLE]",
    });
  });

  it("is bounded in depth and in size", () => {
    let deep: Record<string, unknown> = { leaf: true };
    for (let depth = 0; depth < 100; depth++) deep = { deep };
    // The root is depth 0: objects at depths 0 to 32 are kept, what sits at 33 is cut.
    expect(JSON.stringify(redactDeep(deep))).toBe(`${'{"deep":'.repeat(33)}"[TRUNCATED]"${"}".repeat(33)}`);
    const wide = redactDeep(new Array(1_000_000).fill("a"), 100) as unknown[];
    expect(wide).toHaveLength(100);
    expect(wide.at(-1)).toBe("[TRUNCATED]");
    expect(redactDeep({ a: 1, b: 2, c: 3 }, 2)).toEqual({ a: 1, "[TRUNCATED]": "[TRUNCATED]" });
  });
});
