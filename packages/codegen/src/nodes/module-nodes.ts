// The statements and expressions of the modules written in the hand-written style (two-space
// indent, trailing commas, one-line JSDoc when it fits): methods.js, index.*, validators*, as plain
// data. print/module-printer.ts prints them.
import type { DeclareConstDeclaration, Documented, InterfaceDeclaration } from "./type-nodes.js";

export type Expression = Identifier | StringLiteral | PropertyAccess | Call | Arrow | ObjectLiteral | ArrayLiteral;

export interface Identifier {
  readonly kind: "identifier";
  readonly name: string;
}

export interface StringLiteral {
  readonly kind: "string";
  readonly value: string;
}

/** `expression.name` */
export interface PropertyAccess {
  readonly kind: "propertyAccess";
  readonly expression: Expression;
  readonly name: string;
}

/** `callee(a, b)`; a dynamic `import(…)` is a call of the identifier `import`. */
export interface Call {
  readonly kind: "call";
  readonly callee: Expression;
  readonly arguments: readonly Expression[];
  /** Printed with a `@__PURE__` annotation: bundlers may drop the call when its value is unused. */
  readonly pure?: boolean;
}

/** `(a, b) => body` */
export interface Arrow {
  readonly kind: "arrow";
  readonly parameters: readonly string[];
  readonly body: Expression;
}

/** `{ name: value, … }`, one property a line; a `quoted` name is written as a string (`"thread/start": …`). */
export interface ObjectLiteral {
  readonly kind: "object";
  readonly properties: readonly { readonly name: string; readonly quoted?: boolean; readonly value: Expression }[];
}

/** `[ a, … ]`, one element a line. */
export interface ArrayLiteral {
  readonly kind: "array";
  readonly elements: readonly Expression[];
}

export type Statement = ImportDeclaration | ExportAll | ExportConst | DeclareConstDeclaration | InterfaceDeclaration | Verbatim;

/** `import { a, b } from "from";` or `import type …`; `multiline` puts each name on a line of its own. */
export interface ImportDeclaration {
  readonly kind: "import";
  readonly typeOnly: boolean;
  readonly names: readonly string[];
  readonly from: string;
  readonly multiline: boolean;
}

/** `export * from "from";` or `export type * from "from";` */
export interface ExportAll {
  readonly kind: "exportAll";
  readonly typeOnly: boolean;
  readonly from: string;
}

/** `export const name = value;`, after `// comment` lines when it has one. */
export interface ExportConst extends Documented {
  readonly kind: "exportConst";
  readonly name: string;
  readonly value: Expression;
  readonly comment?: string;
}

/**
 * Source text the generator does not model, printed as it is: ajv's compiled validators, and the
 * fixed helpers and loaders around them that no schema changes.
 */
export interface Verbatim {
  readonly kind: "verbatim";
  readonly text: string;
}

/** A module as paragraphs: statements of a paragraph on consecutive lines, a blank line between paragraphs. */
export interface ModuleNode {
  readonly kind: "module";
  readonly paragraphs: readonly (readonly Statement[])[];
}

export function identifier(name: string): Identifier {
  return { kind: "identifier", name };
}

export function string(value: string): StringLiteral {
  return { kind: "string", value };
}

/** `a.b.c` from `"a.b.c"`. */
export function access(path: string): Expression {
  const [first, ...rest] = path.split(".");
  return rest.reduce<Expression>((expression, name) => ({ kind: "propertyAccess", expression, name }), identifier(first!));
}

export function call(callee: Expression, ...args: Expression[]): Call {
  return { kind: "call", callee, arguments: args };
}

/**
 * `Object.freeze(value)`: what every generated runtime table is wrapped in, marked pure so that a
 * bundler drops the tables a program does not use (a call is otherwise kept for its side effects).
 */
export function frozen(value: Expression): Call {
  return { ...call(access("Object.freeze"), value), pure: true };
}

/** A module of source text alone. */
export function verbatimModule(text: string): ModuleNode {
  return { kind: "module", paragraphs: [[{ kind: "verbatim", text }]] };
}
