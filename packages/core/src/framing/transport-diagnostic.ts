/** Something a transport noticed that is not a message: reported, never fatal. */
export interface TransportDiagnostic {
  readonly kind: "invalid-json" | "oversize-line" | "not-an-object" | "binary-frame" | "stderr" | "other";
  readonly message: string;
  /** The start of the offending line (at most 200 characters), for invalid JSON and non-objects. */
  readonly excerpt?: string;
  /** The size in bytes of the offending line, when known. */
  readonly bytes?: number;
}
