// A scripted model provider for codex: an HTTP server on 127.0.0.1 that answers
// `POST /v1/responses` with the next scripted reply as Server-Sent Events, and records every
// request so tests can check what codex sent to the model.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { MockProviderError } from "./errors.js";
import { RecordedRequest, type RequestOutcome } from "./recorded-request.js";
import { encodeServerSentEvent } from "./responses-stream-event.js";
import { failedReplyEvents, streamReplyEvents, type ResponseIdentity } from "./response-events.js";
import type { ScriptedReply } from "./scripted-reply.js";

export interface MockResponsesProviderOptions {
  /** Replies in the order requests will consume them; more can be added with `enqueue`. */
  readonly script?: readonly ScriptedReply[];
}

export interface WaitOptions {
  /** Default 10 000 ms. */
  readonly timeoutMs?: number;
}

const RESPONSES_PATH = "/v1/responses";

interface RequestWaiter {
  readonly count: number;
  readonly resolve: (requests: readonly RecordedRequest[]) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/** Codex may compress request bodies; undo the encodings Node can decode. */
function decodeBody(body: Buffer, encoding: string | undefined): string {
  switch (encoding?.trim().toLowerCase()) {
    case undefined:
    case "":
    case "identity":
      return body.toString("utf8");
    case "gzip":
      return gunzipSync(body).toString("utf8");
    case "deflate":
      return inflateSync(body).toString("utf8");
    case "br":
      return brotliDecompressSync(body).toString("utf8");
    default:
      return `<undecoded ${encoding} body, ${body.length} bytes>`;
  }
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.once("end", () => resolve(Buffer.concat(chunks)));
    request.once("error", reject);
  });
}

export class MockResponsesProvider {
  /** The base URL codex wants as `base_url` (ends in `/v1`). */
  readonly url: string;
  readonly port: number;

  readonly #server: Server;
  readonly #script: ScriptedReply[];
  readonly #requests: RecordedRequest[] = [];
  readonly #waiters = new Set<RequestWaiter>();
  /** Responses still open (hanging ones), ended by `close`. */
  readonly #openResponses = new Set<ServerResponse>();
  #scriptedCount = 0;
  #closed: Promise<void> | undefined;

  private constructor(server: Server, script: readonly ScriptedReply[]) {
    this.#server = server;
    this.#script = [...script];
    const address = server.address() as AddressInfo;
    this.port = address.port;
    this.url = `http://127.0.0.1:${address.port}/v1`;
  }

  /** Starts listening on 127.0.0.1 on a free port. */
  static async start(options: MockResponsesProviderOptions = {}): Promise<MockResponsesProvider> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
    const provider = new MockResponsesProvider(server, options.script ?? []);
    server.on("request", (request: IncomingMessage, response: ServerResponse) => {
      provider.#handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
        response.end(`mock provider failed: ${error instanceof Error ? error.message : String(error)}`);
      });
    });
    return provider;
  }

  /** Appends replies to the script. */
  enqueue(...replies: readonly ScriptedReply[]): this {
    this.#script.push(...replies);
    return this;
  }

  /** Every request received, in arrival order. */
  get requests(): readonly RecordedRequest[] {
    return this.#requests;
  }

  /** Requests that got no scripted reply: the script ran out, or an unknown method/path. */
  get unexpectedRequests(): readonly RecordedRequest[] {
    return this.#requests.filter((request) => request.outcome !== "scripted");
  }

  /** Script entries not consumed yet. */
  get remainingReplies(): number {
    return this.#script.length;
  }

  /** Resolves with all requests once at least `count` have arrived. */
  waitForRequests(count: number, options: WaitOptions = {}): Promise<readonly RecordedRequest[]> {
    if (this.#requests.length >= count) return Promise.resolve([...this.#requests]);
    if (this.#closed !== undefined) {
      return Promise.reject(new MockProviderError("PROVIDER_CLOSED", "mock provider is closed"));
    }
    const timeoutMs = options.timeoutMs ?? 10_000;
    return new Promise((resolve, reject) => {
      const waiter: RequestWaiter = {
        count,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.#waiters.delete(waiter);
          reject(new MockProviderError("WAIT_TIMEOUT", `mock provider: waited ${timeoutMs} ms for ${count} request(s), got ${this.#requests.length}`));
        }, timeoutMs),
      };
      this.#waiters.add(waiter);
    });
  }

  /** Ends open streams (hanging replies) and stops the server. Safe to call twice. */
  close(): Promise<void> {
    this.#closed ??= new Promise<void>((resolve) => {
      for (const waiter of this.#waiters) {
        clearTimeout(waiter.timer);
        waiter.reject(new MockProviderError("PROVIDER_CLOSED", "mock provider closed while a test waited for requests"));
      }
      this.#waiters.clear();
      for (const response of this.#openResponses) response.destroy();
      this.#openResponses.clear();
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
    return this.#closed;
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const rawBody = decodeBody(await readBody(request), request.headers["content-encoding"]);
    const method = request.method ?? "GET";
    const path = request.url ?? "/";
    const isResponsesRequest = method === "POST" && path.split("?")[0] === RESPONSES_PATH;
    const reply = isResponsesRequest ? this.#script.shift() : undefined;
    const outcome: RequestOutcome = !isResponsesRequest ? "notFound" : reply === undefined ? "unscripted" : "scripted";
    const recorded = new RecordedRequest({
      index: this.#requests.length,
      method,
      path,
      headers: request.headers,
      rawBody,
      outcome,
      ...(reply === undefined ? {} : { reply }),
    });
    this.#requests.push(recorded);
    this.#notifyWaiters();

    if (reply !== undefined) {
      this.#scriptedCount += 1;
      this.#serve(reply, recorded, response);
    } else if (outcome === "unscripted") {
      // 400, because codex shows a 4xx body verbatim in its `error` notification (a 5xx becomes a
      // generic "high demand" message) and does not retry it.
      this.#sendJson(response, 400, {
        error: {
          type: "mock_script_exhausted",
          message:
            `MockResponsesProvider: no scripted reply left for request #${recorded.index} (${method} ${path}); ` +
            `${this.#scriptedCount} scripted repl${this.#scriptedCount === 1 ? "y was" : "ies were"} used. ` +
            `Script one more with enqueue().`,
        },
      });
    } else {
      this.#sendJson(response, 404, {
        error: { type: "mock_not_found", message: `MockResponsesProvider only answers POST ${RESPONSES_PATH}, not ${method} ${path}` },
      });
    }
  }

  #serve(reply: ScriptedReply, recorded: RecordedRequest, response: ServerResponse): void {
    switch (reply.kind) {
      case "httpError":
        response.writeHead(reply.status, { "content-type": reply.contentType });
        response.end(reply.body);
        return;
      case "hang":
        this.#openResponses.add(response);
        response.once("close", () => this.#openResponses.delete(response));
        return;
      case "failed":
      case "stream": {
        const identity = this.#identity(recorded);
        let events = reply.kind === "failed" ? failedReplyEvents(reply, identity) : streamReplyEvents(reply, identity);
        if (reply.kind === "stream" && reply.cutAfterEvents !== undefined) {
          // Never let the cut include `response.completed`, the last event.
          events = events.slice(0, Math.min(reply.cutAfterEvents, events.length - 1));
        }
        response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        response.end(events.map(encodeServerSentEvent).join(""));
        return;
      }
    }
  }

  #identity(recorded: RecordedRequest): ResponseIdentity {
    const tag = `mock_${recorded.index}`;
    return {
      responseId: `resp_${tag}`,
      itemIdTag: tag,
      model: recorded.model ?? "mock-model",
      createdAt: Math.floor(Date.now() / 1000),
    };
  }

  #sendJson(response: ServerResponse, status: number, body: unknown): void {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  }

  #notifyWaiters(): void {
    for (const waiter of this.#waiters) {
      if (this.#requests.length < waiter.count) continue;
      clearTimeout(waiter.timer);
      this.#waiters.delete(waiter);
      waiter.resolve([...this.#requests]);
    }
  }
}
