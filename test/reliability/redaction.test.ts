// Secrets never leave in an error, a diagnostic, a reply or a log: every secret shape × every place
// where text from outside (the server, a handler, the URL, stderr) is passed on. All the secrets are
// fakes shaped like real ones (AWS's documentation examples among them).
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Ws from "ws";
import { CodexClient, ServerError, type ConnectionDiagnostic } from "@codex-rpc/core";
import { StderrTail } from "@codex-rpc/core/process";
import { FakeAppServer } from "@codex-rpc/testing";
import { openWebSocketTransport, type WebSocketConstructor } from "@codex-rpc/websocket";
import { recordReliability } from "./support/reliability-report.js";

interface SecretCase {
  readonly name: string;
  /** The text that carries the secret, as a server or a library would write it. */
  readonly text: string;
  /** What must never come out: the secret, and the parts of it that alone would still leak. */
  readonly secrets: readonly string[];
}

const PEM_LINES = [
  "MIIEowIBAAKCAQEAFAKEfakeFAKEfakeFAKEfakeFAKEfakeFAKEfakeFAKEfake0",
  "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2H1g0FAKEfakeFAKEfakeFAKEfak1",
  "NOTaREALkeyNOTaREALkeyNOTaREALkeyNOTaREALkeyNOTaREALkeyNOTaREAL2",
];
const JWT_PAYLOAD = "eyJzdWIiOiJmYWtlLXVzZXIiLCJmYWtlIjp0cnVlfQ";
const JWT_SIGNATURE = "RkFLRS1zaWduYXR1cmUtbm90LXJlYWw";

const SECRETS: readonly SecretCase[] = [
  {
    name: "OpenAI key",
    text: "Incorrect API key provided: sk-proj-FAKE0fake1FAKE2fake3FAKE4fake5.",
    secrets: ["sk-proj-FAKE0fake1FAKE2fake3FAKE4fake5", "FAKE0fake1FAKE2fake3"],
  },
  { name: "Bearer token", text: "retrying with Bearer FAKEfakeBearer0123456789 after 401", secrets: ["FAKEfakeBearer0123456789"] },
  { name: "Authorization header", text: "> authorization: Basic RkFLRTpmYWtlLXBhc3N3b3Jk", secrets: ["RkFLRTpmYWtlLXBhc3N3b3Jk"] },
  {
    name: "AWS secret key (credentials file)",
    text: "[default]\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    secrets: ["wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"],
  },
  {
    name: "AWS secret key (environment)",
    text: "env AWS_SECRET_ACCESS_KEY=FAKEfake0123456789/FAKEfake0123456789+Ab",
    secrets: ["FAKEfake0123456789/FAKEfake0123456789+Ab"],
  },
  { name: "AWS access key id", text: "SignatureDoesNotMatch for AKIAIOSFODNN7EXAMPLE", secrets: ["AKIAIOSFODNN7EXAMPLE"] },
  {
    name: "GitHub token",
    text: "git push rejected for ghp_FAKEfake0123456789FAKEfake0123456789 (bad credentials)",
    secrets: ["ghp_FAKEfake0123456789FAKEfake0123456789"],
  },
  {
    name: "GitHub fine-grained token",
    text: "GH_TOKEN is github_pat_11FAKEFAKE0_fakefakefakefakefakefakefakefakefakefake0123",
    secrets: ["github_pat_11FAKEFAKE0_fakefakefakefakefakefakefakefakefakefake0123", "fakefakefakefakefakefakefakefakefakefake0123"],
  },
  { name: "password in a URL", text: "could not reach postgres://admin:FakePassw0rd-4-tests@db.example.com:5432/app", secrets: ["FakePassw0rd-4-tests"] },
  { name: "Cookie header", text: "> Cookie: theme=dark; session=FAKEsessionCookie0123456789", secrets: ["FAKEsessionCookie0123456789"] },
  { name: "Set-Cookie header", text: "< Set-Cookie: __Host-sid=FAKEsid0123456789abcdef; Path=/; Secure; HttpOnly", secrets: ["FAKEsid0123456789abcdef"] },
  {
    name: "PEM private key",
    text: `loaded key:\n-----BEGIN RSA PRIVATE KEY-----\n${PEM_LINES.join("\n")}\n-----END RSA PRIVATE KEY-----`,
    secrets: PEM_LINES,
  },
  {
    name: "PEM private key, cut off",
    text: `bad key file: -----BEGIN PRIVATE KEY-----\n${PEM_LINES[0]}\n${PEM_LINES[1]!.slice(0, 48)}`,
    secrets: [PEM_LINES[0]!, PEM_LINES[1]!.slice(0, 48)],
  },
  { name: "Slack token", text: "chat.postMessage with xoxb-000000000000-0000000000000-FAKEfakeFAKEfakeFAKEfake failed", secrets: ["FAKEfakeFAKEfakeFAKEfake"] },
  { name: "JWT", text: `invalid_grant for eyJhbGciOiJIUzI1NiJ9.${JWT_PAYLOAD}.${JWT_SIGNATURE}`, secrets: [JWT_PAYLOAD, JWT_SIGNATURE] },
];

/** Everything a place lets out for one injected text: messages, fields, replies, log lines. */
type Place = (secret: SecretCase) => Promise<string[]>;

let fake: FakeAppServer;
let client: CodexClient;
const diagnostics: ConnectionDiagnostic[] = [];

beforeAll(async () => {
  fake = new FakeAppServer({ framing: "ndjson" });
  client = await CodexClient.connect(fake.transport, {
    tools: [
      {
        name: "lookup",
        description: "fails with what it was given",
        inputSchema: { type: "object" },
        handler: (args) => {
          throw new Error(`lookup failed: ${(args as { leak: string }).leak}`);
        },
      },
    ],
    handlers: {
      "item/tool/requestUserInput": (params) => {
        throw new Error(`prompt failed: ${(params as unknown as { leak: string }).leak}`);
      },
    },
  });
  client.diagnostics$.subscribe((diagnostic) => diagnostics.push(diagnostic));
});

let cases = 0;
let faults = 0;
afterAll(async () => {
  await client.close();
  recordReliability({ area: "redaction: secrets × places", cases, faults });
});

function everyView(error: unknown): string[] {
  const { message, stack } = error as Error;
  return [message, stack ?? "", String(error), inspect(error, { depth: null }), JSON.stringify(error)];
}

const PLACES: ReadonlyArray<readonly [string, Place]> = [
  [
    "ServerError message, rpcMessage, data and rawCode",
    async ({ text }) => {
      fake.respond("thread/start", () => ({
        error: { code: -32000, message: `thread/start refused: ${text}`, data: { detail: text, nested: [{ echo: text }] } },
      }));
      const error = await client.startThread().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServerError);
      const { rpcMessage, data } = error as ServerError;
      expect(rpcMessage).toContain("thread/start refused"); // the rest survives
      // A server that puts text where the integer code belongs.
      fake.respond("thread/list", () => ({ error: { code: text as unknown as number, message: "odd code" } }));
      const odd = await client.request("thread/list", {}).catch((e: unknown) => e);
      expect(odd).toMatchObject({ rpcCode: -32603 });
      return [...everyView(error), rpcMessage, JSON.stringify(data), ...everyView(odd), String((odd as ServerError).rawCode)];
    },
  ],
  [
    "tool failure text sent to the model",
    async ({ text }) => {
      const reply = await fake.request("item/tool/call", {
        threadId: "t",
        turnId: "u",
        callId: "c",
        tool: "lookup",
        namespace: null,
        arguments: { leak: text },
      });
      expect(reply).toMatchObject({ result: { success: false } });
      expect(JSON.stringify(reply)).toContain("lookup failed");
      return [JSON.stringify(reply)];
    },
  ],
  [
    "WebSocketConnectError message and url",
    async ({ secrets }) => {
      // The secret as the URL's password and as a query token; nothing listens on port 1.
      const secret = encodeURIComponent(secrets[0]!);
      const error = await openWebSocketTransport({
        url: `ws://codex:${secret}@127.0.0.1:1/?token=${secret}`,
        WebSocket: Ws as unknown as WebSocketConstructor,
      }).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: "WebSocketConnectError", code: "CONNECT_FAILED" });
      const { url } = error as { url: string };
      expect(url).toContain("127.0.0.1:1");
      return [...everyView(error), url];
    },
  ],
  [
    "stderr lines and tail",
    async ({ text }) => {
      const lines: string[] = [];
      const tail = new StderrTail(50, (line) => lines.push(line));
      // In small chunks, as a pipe may deliver them: redaction works on whole lines.
      const input = `2026-11-22T16:24:20Z ERROR codex_core: ${text}\n`;
      for (let start = 0; start < input.length; start += 7) tail.push(input.slice(start, start + 7));
      tail.flush();
      expect(lines[0]).toContain("ERROR codex_core");
      return [...lines, ...tail.lines()];
    },
  ],
  [
    "handler-error diagnostic and the -32603 reply",
    async ({ text }) => {
      const before = diagnostics.length;
      const reply = await fake.request("item/tool/requestUserInput", { threadId: "t", turnId: "u", itemId: "i", questions: [], leak: text });
      expect(reply).toMatchObject({ error: { code: -32603 } });
      const reported = diagnostics.slice(before);
      expect(reported.map((diagnostic) => diagnostic.kind)).toContain("handler-error");
      return [JSON.stringify(reply), ...reported.map((diagnostic) => JSON.stringify(diagnostic))];
    },
  ],
];

describe.each(PLACES)("%s", (_place, run) => {
  it.each(SECRETS)("$name", async (secret) => {
    cases++;
    faults += secret.secrets.length;
    const out = (await run(secret)).join("\n");
    expect(out).toContain("[REDACTED]");
    // The URL place injects the secret percent-encoded: look for that form too.
    for (const leaked of secret.secrets) {
      expect(out).not.toContain(leaked);
      expect(out).not.toContain(encodeURIComponent(leaked));
    }
  });
});
