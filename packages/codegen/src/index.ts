export { CodegenError, type CodegenErrorCode, type CodegenErrorContext } from "./util/codegen-error.js";
export { generate, type FlavorReport, type GenerateOptions, type GenerateResult, type ResultReport } from "./generate.js";
export { findStaleFiles, type StaleFile } from "./write/find-stale-files.js";
export { checkOutputDirectory, writeGeneratedFiles, type WriteOptions } from "./write/write-generated-files.js";
export { main } from "./cli.js";
export {
  diffBundles,
  diffSchemaDirectories,
  diffSchemaFolders,
  type DiffCounts,
  type DiffDetail,
  type DiffEntry,
  type DiffOptions,
  type DiffSection,
  type FlavorDiff,
  type SchemaDiff,
} from "./analyse/schema-diff.js";
export { formatSchemaDiff } from "./print/schema-diff-text.js";
export { CHANGE_SEVERITY, METHOD_SEVERITY, type ChangeKind, type ChangeNote, type Direction, type Severity } from "./analyse/change-severity.js";
export {
  readProtocolMethods,
  METHOD_UNIONS,
  type MethodKind,
  type ProtocolMethod,
  type ProtocolMethods,
  type ReadProtocolMethodsOptions,
} from "./analyse/protocol-methods.js";
export { resolveResults, RESULT_RULES, type ResolvedResult, type ResultRule } from "./analyse/result-resolution.js";
export { readResultMapFile } from "./read/result-map-file.js";
export { displayPath } from "./util/display-path.js";
export {
  readSchemaDirectory,
  readSchemaFolder,
  readSchemaBundle,
  BUNDLE_FILE,
  type SchemaBundle,
  type SchemaDefinition,
  type SchemaFlavor,
  type SchemaFolder,
} from "./read/schema-bundle.js";
export { RESULT_TABLE } from "./analyse/result-table.js";
export { NUMBER_FORMATS } from "./emit/number-formats.js";
export { codexBinaryIn, installCodex, projectNpmrc, type InstallOptions } from "./read/codex-binary.js";
export { exportCodexSchemas, type CodexExport } from "./read/codex-export.js";
export { packageManifest } from "./write/package-manifest.js";
