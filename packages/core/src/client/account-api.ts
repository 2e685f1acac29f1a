import type { ParamsIn, ProtocolTypesShape, ResultIn, DefaultProtocolTypes } from "../rpc/protocol-types.js";
import { isRecord } from "../util/is-record.js";
import type { LoginOptions, PendingLogin } from "./account-login.js";
import type { ApiHost } from "./api-host.js";

export type { LoginCompletion, LoginOptions, PendingLogin } from "./account-login.js";

type Requests<T extends ProtocolTypesShape> = T["clientRequests"];
/** ChatGPT browser login: open `authUrl` (codex listens on a local port for the redirect). */
export interface ChatGptLogin<T extends ProtocolTypesShape = DefaultProtocolTypes> extends PendingLogin<T> {
  readonly authUrl: string;
}

/** ChatGPT device-code login: the user opens `verificationUrl` anywhere and enters `userCode`. */
export interface DeviceCodeLogin<T extends ProtocolTypesShape = DefaultProtocolTypes> extends PendingLogin<T> {
  readonly verificationUrl: string;
  readonly userCode: string;
}

/**
 * The account methods of the app-server, typed by the client's protocol (`client.account`):
 * logging in (API key, ChatGPT in a browser, ChatGPT by device code), reading the account, its
 * rate limits and token usage, logging out. Keys never appear in the errors it throws.
 */
export class CodexAccount<T extends ProtocolTypesShape = DefaultProtocolTypes> {
  readonly #host: ApiHost;

  constructor(host: ApiHost) {
    this.#host = host;
  }

  /**
   * Logs in with an OpenAI API key (`account/login/start` type `apiKey`); codex stores it in its
   * CODEX_HOME (`auth.json`). Resolves once codex has it.
   */
  async loginWithApiKey(apiKey: string): Promise<void> {
    try {
      await this.#host.request("account/login/start", { type: "apiKey", apiKey });
    } catch (error) {
      // A load stopped by the deadline or the close throws its own error, which holds no key.
      throw (await this.#host.load("account/login/start", import("./account-login.js"))).withoutSecret(error, apiKey);
    }
  }

  /** Starts a ChatGPT browser login; resolves with the URL to open and the login's completion. */
  async loginWithChatGpt(options: LoginOptions = {}): Promise<ChatGptLogin<T>> {
    return this.#startLogin({ type: "chatgpt" }, options, ["authUrl"]);
  }

  /** Starts a ChatGPT device-code login; resolves with the URL and code to show and the login's completion. */
  async loginWithDeviceCode(options: LoginOptions = {}): Promise<DeviceCodeLogin<T>> {
    return this.#startLogin({ type: "chatgptDeviceCode" }, options, ["verificationUrl", "userCode"]);
  }

  /** Cancels a login by id (`account/login/cancel`): `"canceled"` or `"notFound"`. */
  async cancelLogin(loginId: string): Promise<string> {
    const result = await this.#host.request("account/login/cancel", { loginId });
    return isRecord(result) && typeof result.status === "string" ? result.status : "canceled";
  }

  /** The account codex is logged in with (`account/read`): `account` is null when none. */
  read(params: ParamsIn<Requests<T>, "account/read"> = {} as ParamsIn<Requests<T>, "account/read">): Promise<ResultIn<Requests<T>, "account/read">> {
    return this.#host.request("account/read", params) as Promise<ResultIn<Requests<T>, "account/read">>;
  }

  /** The ChatGPT account's rate limits (`account/rateLimits/read`); codex refuses it without a ChatGPT login. */
  rateLimits(params?: ParamsIn<Requests<T>, "account/rateLimits/read">): Promise<ResultIn<Requests<T>, "account/rateLimits/read">> {
    return this.#host.request("account/rateLimits/read", params) as Promise<ResultIn<Requests<T>, "account/rateLimits/read">>;
  }

  /** Token usage of the account or of one thread (`account/usage/read`); codex refuses it without a ChatGPT login. */
  usage(params?: ParamsIn<Requests<T>, "account/usage/read">): Promise<ResultIn<Requests<T>, "account/usage/read">> {
    return this.#host.request("account/usage/read", params) as Promise<ResultIn<Requests<T>, "account/usage/read">>;
  }

  /** Logs out (`account/logout`): codex forgets the stored credentials. */
  async logout(): Promise<void> {
    await this.#host.request("account/logout", undefined);
  }

  /** `account/login/start` for a login that completes later (see account-login), with these string fields of codex's reply. */
  async #startLogin<F extends string>(params: object, options: LoginOptions, fields: readonly F[]): Promise<PendingLogin<T> & Record<F, string>> {
    const { startLogin } = await this.#host.load("account/login/start", import("./account-login.js"), options);
    return startLogin<T, F>(this.#host, params, options, (loginId) => this.cancelLogin(loginId), fields);
  }
}
