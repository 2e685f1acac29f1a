import type { SourceFile } from "../nodes/source-file.js";
import { printDeclarations } from "./declaration-printer.js";
import { printModule } from "./module-printer.js";

/** A generated file's text, without its header: each kind of file by its own printer. */
export function printSourceFile(file: SourceFile): string {
  return file.kind === "declarations" ? printDeclarations(file.declarations) : printModule(file);
}
