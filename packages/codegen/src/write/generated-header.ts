import { GENERATED_MARK } from "../read/generated-output.js";
import type { SchemaFlavor } from "../read/schema-bundle.js";

/** The first lines of every generated file: where it came from, how to remake it, not to edit it. */
export function generatedHeader(codexVersion: string, flavor: SchemaFlavor, command: string): string {
  return [
    `${GENERATED_MARK}${codexVersion} app-server schemas (${flavor}).`,
    `// Command: ${command}`,
    "// Do not edit by hand: change the generator or the vendored schemas and run the command again.",
    "",
  ].join("\n");
}
