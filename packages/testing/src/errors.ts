/** Every error the kit raises has a stable `code`; switch on it, not on messages. */
export type TestingErrorCode = "WAIT_TIMEOUT" | "PROVIDER_CLOSED";

export class MockProviderError extends Error {
  override name = "MockProviderError";
  readonly code: TestingErrorCode;

  constructor(code: TestingErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
