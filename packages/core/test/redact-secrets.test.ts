import { describe, expect, it } from "vitest";
import { redactSecrets } from "../src/redact-secrets.js";

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
    ["camelCase keys", '{"apiKey": "abc123", "clientSecret": "s3cr3t!", "accessToken": "tok"}', '{"apiKey": "[REDACTED]", "clientSecret": "[REDACTED]", "accessToken": "[REDACTED]"}'],
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
