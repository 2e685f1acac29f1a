/** A JSON-RPC id: the server echoes it with its type (integer or string). */
export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params?: unknown;
}

export interface JsonRpcNotification {
  readonly method: string;
  readonly params?: unknown;
  /** The server stamps notifications with the time it emitted them. */
  readonly emittedAtMs?: number;
}

export interface JsonRpcSuccess {
  readonly id: JsonRpcId;
  readonly result: unknown;
}

export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export interface JsonRpcFailure {
  readonly id: JsonRpcId | null;
  readonly error: JsonRpcErrorObject;
}

/** "JSON-RPC lite": codex omits `"jsonrpc": "2.0"` and accepts it when sent. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcSuccess | JsonRpcFailure;
