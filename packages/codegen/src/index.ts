export { CodegenError, type CodegenErrorCode, type CodegenErrorContext } from "./codegen-error.js";
export { generate, type FlavorReport, type GenerateOptions, type GenerateResult, type ResultReport } from "./generate.js";
export { findStaleFiles, writeGeneratedFiles, type StaleFile } from "./generated-output.js";
export { main } from "./cli.js";
export {
  diffBundles,
  diffSchemaDirectories,
  type DiffCounts,
  type DiffDetail,
  type DiffEntry,
  type DiffOptions,
  type DiffSection,
  type FlavorDiff,
  type SchemaDiff,
} from "./schema-diff.js";
export { formatSchemaDiff } from "./schema-diff-text.js";
export { CHANGE_SEVERITY, METHOD_SEVERITY, type ChangeKind, type ChangeNote, type Direction, type Severity } from "./change-severity.js";
export {
  readProtocolMethods,
  METHOD_UNIONS,
  type MethodKind,
  type ProtocolMethod,
  type ProtocolMethods,
  type ReadProtocolMethodsOptions,
} from "./protocol-methods.js";
export { resolveResults, RESULT_RULES, type ResolvedResult, type ResultRule } from "./result-resolution.js";
export { readResultMapFile } from "./result-map-file.js";
export { displayPath } from "./display-path.js";
export { readSchemaDirectory, readSchemaBundle, BUNDLE_FILE, type SchemaBundle, type SchemaDefinition, type SchemaFlavor } from "./schema-bundle.js";
export { RESULT_TABLE } from "./result-table.js";
export { NUMBER_FORMATS } from "./number-formats.js";
export { codexBinaryIn, installCodex } from "./codex-binary.js";
export { exportCodexSchemas, type CodexExport } from "./codex-export.js";
export { packageManifest } from "./package-manifest.js";
