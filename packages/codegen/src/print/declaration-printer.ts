// Prints nodes/type-nodes.ts declarations exactly as TypeScript's printer (`ts.createPrinter`, LF newlines)
// printed the equivalent factory nodes, so the generated files stay byte-identical without loading
// the compiler. Each rule below names the printer behaviour it reproduces.
import type { Declaration, TypeMember, TypeNode, TypeOperator } from "../nodes/type-nodes.js";

const INDENT = "    ";

/** Each declaration printed on its own, separated by a blank line, with a final newline. */
export function printDeclarations(declarations: readonly Declaration[]): string {
  return `${declarations.map(printDeclaration).join("\n\n")}\n`;
}

function printDeclaration(declaration: Declaration): string {
  const out = new Output();
  writeDeclaration(declaration, out);
  return out.text;
}

/**
 * TypeScript's text writer: indentation is written lazily, by the first write on a line, and a
 * newline is only written when the line has something on it.
 */
class Output {
  text = "";
  level = 0;
  private atLineStart = true;

  write(s: string): void {
    if (!s) return;
    if (this.atLineStart) this.text += INDENT.repeat(this.level);
    this.raw(s);
  }

  /** Appends without indenting (comment lines bring their own). Text ending in a line break leaves us at a line start. */
  raw(s: string): void {
    this.text += s;
    this.atLineStart = /[\r\n\u2028\u2029]$/.test(s);
  }

  newLine(): void {
    if (!this.atLineStart) this.raw("\n");
  }
}

function writeDeclaration(declaration: Declaration, out: Output): void {
  writeDocs(declaration.docs, out);
  switch (declaration.kind) {
    case "typeAlias":
      out.write(`export type ${declaration.name} = `);
      writeType(declaration.type, out);
      out.write(";");
      return;
    case "interface":
      out.write(`export interface ${declaration.name} {`);
      writeLines(declaration.members, writeMember, out, { emptyAsNewLine: true });
      out.write("}");
      return;
    case "namespace":
      out.write(`export namespace ${declaration.name} {`);
      // An empty block is forced onto one line: `{ }`.
      if (declaration.body.length === 0) out.write(" ");
      else writeLines(declaration.body, writeDeclaration, out, { emptyAsNewLine: false });
      out.write("}");
      return;
    case "declareConst":
      out.write(`export declare const ${declaration.name}: `);
      writeType(declaration.type, out);
      out.write(";");
      return;
    case "importTypeNamespace":
      out.write(`import type * as ${declaration.alias} from ${stringLiteral(declaration.from)};`);
      return;
  }
}

function writeType(type: TypeNode, out: Output): void {
  writeDocs(type.docs, out);
  switch (type.kind) {
    case "keyword":
      out.write(type.keyword);
      return;
    case "literal":
      out.write(literalText(type.value));
      return;
    case "reference":
      out.write(type.name);
      if (type.typeArguments && type.typeArguments.length > 0) {
        out.write("<");
        writeSeparated(type.typeArguments, ", ", writeType, out);
        out.write(">");
      }
      return;
    case "tuple":
      // Synthesized tuples are multi-line, one element per line; an empty one still breaks the line.
      out.write("[");
      writeLines(type.elements, writeType, out, { emptyAsNewLine: true, separator: "," });
      out.write("]");
      return;
    case "union":
      writeSeparated(type.members, " | ", writeConstituent, out);
      return;
    case "intersection":
      writeSeparated(type.members, " & ", writeConstituent, out);
      return;
    case "typeLiteral":
      // An empty literal prints as `{}` (its member list is optional-if-empty).
      out.write("{");
      writeLines(type.members, writeMember, out, { emptyAsNewLine: false });
      out.write("}");
      return;
    case "mapped":
      out.write("{");
      out.newLine();
      out.level++;
      out.write(`${type.readonly ? "readonly " : ""}[${type.parameter} in `);
      writeType(type.constraint, out);
      out.write(type.optional ? "]?: " : "]: ");
      writeType(type.type, out);
      out.write(";");
      out.newLine();
      out.level--;
      out.write("}");
      return;
    case "operator":
      out.write(`${type.operator} `);
      if (operandNeedsParentheses(type)) writeParenthesized(type.type, out);
      else writeType(type.type, out);
      return;
    case "typeQuery":
      out.write(`typeof ${type.name}`);
      return;
    case "indexedAccess":
      writeType(type.objectType, out);
      out.write("[");
      writeType(type.indexType, out);
      out.write("]");
      return;
  }
}

/** A union or intersection member: a nested union or intersection is parenthesized, its docs inside the parentheses. */
function writeConstituent(type: TypeNode, out: Output): void {
  if (type.kind === "union" || type.kind === "intersection") writeParenthesized(type, out);
  else writeType(type, out);
}

/** `keyof (A | B)`, `readonly (keyof T)`: an operator binds tighter than `|` and `&` (and `readonly` than `keyof`). */
function operandNeedsParentheses({ operator, type }: TypeOperator): boolean {
  return type.kind === "union" || type.kind === "intersection" || (operator === "readonly" && type.kind === "operator");
}

function writeParenthesized(type: TypeNode, out: Output): void {
  out.write("(");
  writeType(type, out);
  out.write(")");
}

function writeMember(member: TypeMember, out: Output): void {
  writeDocs(member.docs, out);
  if (member.kind === "method") {
    out.write(`${member.name}(): `);
    writeType(member.returnType, out);
  } else {
    if (member.readonly) out.write("readonly ");
    out.write(member.quoted ? stringLiteral(member.name) : member.name);
    out.write(member.optional ? "?: " : ": ");
    writeType(member.type, out);
  }
  out.write(";");
}

function writeSeparated<T>(items: readonly T[], separator: string, writeItem: (item: T, out: Output) => void, out: Output): void {
  items.forEach((item, index) => {
    if (index > 0) out.write(separator);
    writeItem(item, out);
  });
}

/**
 * A multi-line, indented list: each item on its own line after the opening bracket, the closing one
 * on a line of its own. `emptyAsNewLine`: an empty list still writes a line break (interfaces, tuples).
 */
function writeLines<T>(
  items: readonly T[],
  writeItem: (item: T, out: Output) => void,
  out: Output,
  options: { emptyAsNewLine: boolean; separator?: string },
): void {
  if (items.length === 0) {
    if (options.emptyAsNewLine) out.newLine();
    return;
  }
  out.newLine();
  out.level++;
  items.forEach((item, index) => {
    if (index > 0) {
      if (options.separator) out.write(options.separator);
      out.newLine();
    }
    writeItem(item, out);
  });
  out.level--;
  out.newLine();
}

/**
 * Each description as a JSDoc block on lines of its own. `*\/` inside it is broken so the comment
 * stays closed. TypeScript re-indents every line after the first to the current level (plus the
 * line's own leading whitespace) and trims each line, so this does too.
 */
function writeDocs(docs: readonly string[] | undefined, out: Output): void {
  for (const description of docs ?? []) {
    const lines = description.replace(/\*\//g, "*\\/").replace(/\r\n?/g, "\n").trimEnd().split("\n");
    const comment = `/**\n${lines.map((line) => (line ? ` * ${line}` : " *")).join("\n")}\n */`;
    // TypeScript splits at every line terminator it knows, U+2028 and U+2029 included.
    const commentLines = comment.split(/\r\n|[\r\n\u2028\u2029]/);
    commentLines.forEach((line, index) => {
      if (index > 0) out.raw(" ".repeat(out.level * INDENT.length + leadingWhitespaceWidth(line)));
      const text = line.trim();
      if (!text) out.raw("\n");
      else {
        out.write(text);
        if (index < commentLines.length - 1) out.newLine();
      }
    });
    out.newLine();
  }
}

/** Columns of a line's leading whitespace, as TypeScript measures it (tabs to the next multiple of 4). */
function leadingWhitespaceWidth(line: string): number {
  let width = 0;
  for (const char of line) {
    if (char === "\t") width += INDENT.length - (width % INDENT.length);
    else if (SINGLE_LINE_WHITESPACE.test(char)) width++;
    else break;
  }
  return width;
}

const SINGLE_LINE_WHITESPACE = /^[ \t\v\f\u00a0\u0085\u1680\u2000-\u200b\u202f\u205f\u3000\ufeff]$/;

function literalText(value: string | number | boolean | null): string {
  if (typeof value === "string") return stringLiteral(value);
  // A negative number is a prefix `-` before the positive literal.
  if (typeof value === "number") return value < 0 ? `-${String(-value)}` : String(value);
  return String(value);
}

/** A double-quoted string literal, escaped as TypeScript escapes synthesized literals (non-ASCII as `\uXXXX`). */
function stringLiteral(text: string): string {
  const escaped = text.replace(ESCAPED_CHARACTERS, (char, offset: number) => {
    // `\0` before a digit would read as an octal escape.
    if (char === "\0") return /[0-9]/.test(text.charAt(offset + 1)) ? "\\x00" : "\\0";
    return NAMED_ESCAPES[char] ?? unicodeEscape(char);
  });
  return `"${escaped.replace(/[\u0080-\uffff]/g, unicodeEscape)}"`;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters a string literal must escape include the control characters
const ESCAPED_CHARACTERS = /[\\"\u0000-\u001f\u2028\u2029\u0085]/g;

const NAMED_ESCAPES: Readonly<Record<string, string>> = {
  "\t": "\\t",
  "\v": "\\v",
  "\f": "\\f",
  "\b": "\\b",
  "\r": "\\r",
  "\n": "\\n",
  "\\": "\\\\",
  '"': '\\"',
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
  "\u0085": "\\u0085",
};

function unicodeEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
}
