export { CodegenError, type CodegenErrorCode, type CodegenErrorContext } from "./codegen-error.js";
export { generate, type FlavorReport, type GenerateOptions, type GenerateResult } from "./generate.js";
export { findStaleFiles, writeGeneratedFiles, type StaleFile } from "./generated-output.js";
export { main } from "./cli.js";
export { diffSchemaDirectories, formatSchemaDiff, type FlavorDiff, type SchemaDiff } from "./schema-diff.js";
export { readProtocolMethods, METHOD_UNIONS, type MethodKind, type ProtocolMethod, type ProtocolMethods } from "./protocol-methods.js";
export { readSchemaDirectory, readSchemaBundle, BUNDLE_FILE, type SchemaBundle, type SchemaDefinition, type SchemaFlavor } from "./schema-bundle.js";
export { RESULT_TABLE } from "./result-table.js";
export { NUMBER_FORMATS } from "./number-formats.js";
