// One generated file as nodes, before printing: either declarations in TypeScript's printer style
// (types.d.ts, methods.d.ts) or a module in the hand-written style (methods.js, index.js, index.d.ts).
import type { ModuleNode } from "./module-nodes.js";
import type { Declaration } from "./type-nodes.js";

/** Declarations printed as TypeScript's printer prints them, a blank line between each. */
export interface DeclarationFile {
  readonly kind: "declarations";
  readonly declarations: readonly Declaration[];
}

export type SourceFile = DeclarationFile | ModuleNode;
