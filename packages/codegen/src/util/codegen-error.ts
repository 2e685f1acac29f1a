/** Stable codes for everything that can stop generation; tests and callers switch on these. */
export type CodegenErrorCode =
  | "SCHEMA_DIR_MISSING"
  | "SCHEMA_FILE_MISSING"
  | "INVALID_JSON"
  | "UNRESOLVED_REF"
  | "UNSUPPORTED_SCHEMA"
  | "NAME_COLLISION"
  /** No longer thrown (kept so that code switching on it compiles): a result no rule resolves is typed `unknown`, with a warning. */
  | "UNRESOLVED_METHODS"
  | "RESULT_MAP_INVALID"
  | "CODEX_EXPORT_FAILED"
  | "OUTPUT_STALE"
  /** `--out` is a file, or a directory holding files generate did not write: replacing it would delete them. */
  | "OUTPUT_NOT_GENERATED"
  /** `--out` is a symbolic link: replacing the folder would replace the link; pass the real path. */
  | "OUTPUT_IS_LINK"
  /** `--out` is the current directory or a parent of it. */
  | "OUTPUT_HOLDS_CWD"
  /** The filesystem refused a write; the previous output is whole. */
  | "WRITE_FAILED"
  | "USAGE";

export interface CodegenErrorContext {
  /** The file being read when the problem was found. */
  file?: string;
  /** JSON pointer (RFC 6901, as a URI fragment) into that file. */
  pointer?: string;
}

/** An error that says what went wrong and where: the file and the JSON pointer inside it. */
export class CodegenError extends Error {
  override readonly name = "CodegenError";
  readonly code: CodegenErrorCode;
  readonly file: string | undefined;
  readonly pointer: string | undefined;

  constructor(code: CodegenErrorCode, message: string, context: CodegenErrorContext = {}) {
    const where = [context.file, context.pointer].filter(Boolean).join(" at ");
    super(where ? `${message} (${where})` : message);
    this.code = code;
    this.file = context.file;
    this.pointer = context.pointer;
  }
}
