// Prints nodes/module-nodes.ts modules in the hand-written style the generated methods.js, index.js
// and index.d.ts have always had: two-space indent, trailing commas in multi-line literals, strings
// as JSON writes them, a one-line JSDoc when the text is one line.
import type { Expression, ModuleNode, Statement } from "../nodes/module-nodes.js";
import type { Documented, TypeMember, TypeNode } from "../nodes/type-nodes.js";

const INDENT = "  ";

/**
 * The paragraphs separated by a blank line, with a final newline. Joined once, from pieces: a
 * validators chunk is megabytes of ajv's code, and every intermediate string would be a copy.
 */
export function printModule(module: ModuleNode): string {
  const pieces: string[] = [];
  module.paragraphs.forEach((paragraph, index) => {
    if (index > 0) pieces.push("\n\n");
    paragraph.forEach((statement, position) => {
      if (position > 0) pieces.push("\n");
      pieces.push(statementText(statement));
    });
  });
  pieces.push("\n");
  return pieces.join("");
}

function statementText(statement: Statement): string {
  switch (statement.kind) {
    case "import": {
      const keyword = statement.typeOnly ? "import type" : "import";
      const names = statement.multiline ? `{\n${statement.names.map((name) => `${INDENT}${name},`).join("\n")}\n}` : `{ ${statement.names.join(", ")} }`;
      return `${keyword} ${names} from ${JSON.stringify(statement.from)};`;
    }
    case "exportAll":
      return `export ${statement.typeOnly ? "type " : ""}* from ${JSON.stringify(statement.from)};`;
    case "exportConst": {
      const comment =
        statement.comment === undefined
          ? ""
          : statement.comment
              .split("\n")
              .map((line) => `// ${line}\n`)
              .join("");
      return `${docsText(statement, 0)}${comment}export const ${statement.name} = ${expressionText(statement.value, 0)};`;
    }
    case "declareConst":
      return `${docsText(statement, 0)}export declare const ${statement.name}: ${typeText(statement.type, 0)};`;
    case "interface":
      return `${docsText(statement, 0)}export interface ${statement.name} ${membersText(statement.members, 0)}`;
    case "verbatim":
      return statement.text;
  }
}

function expressionText(expression: Expression, level: number): string {
  switch (expression.kind) {
    case "identifier":
      return expression.name;
    case "string":
      return JSON.stringify(expression.value);
    case "propertyAccess":
      return `${expressionText(expression.expression, level)}.${expression.name}`;
    case "call":
      return `${expression.pure ? "/* @__PURE__ */ " : ""}${expressionText(expression.callee, level)}(${expression.arguments.map((arg) => expressionText(arg, level)).join(", ")})`;
    case "arrow":
      return `(${expression.parameters.join(", ")}) => ${expressionText(expression.body, level)}`;
    case "object":
      return lines(
        "{",
        expression.properties.map((p) => `${p.quoted ? JSON.stringify(p.name) : p.name}: ${expressionText(p.value, level + 1)},`),
        "}",
        level,
      );
    case "array":
      return lines(
        "[",
        expression.elements.map((element) => `${expressionText(element, level + 1)},`),
        "]",
        level,
      );
  }
}

/**
 * The items on lines of their own between the brackets. An empty list still breaks the line twice
 * (`[\n\n]`): what the generated methods.js has always had for a kind without methods.
 */
function lines(open: string, items: readonly string[], close: string, level: number): string {
  const indent = INDENT.repeat(level + 1);
  return `${open}\n${items.map((item) => indent + item).join("\n")}\n${INDENT.repeat(level)}${close}`;
}

/** Only the type forms these modules use (unions and the like would need parentheses rules): the rest throw. */
function typeText(type: TypeNode, level: number): string {
  switch (type.kind) {
    case "keyword":
      return type.keyword;
    case "literal":
      return JSON.stringify(type.value);
    case "reference":
      return type.typeArguments ? `${type.name}<${type.typeArguments.map((arg) => typeText(arg, level)).join(", ")}>` : type.name;
    case "typeQuery":
      return `typeof ${type.name}`;
    case "typeLiteral":
      return membersText(type.members, level);
    case "operator":
      return `${type.operator} ${typeText(type.type, level)}`;
    case "indexedAccess":
      return `${typeText(type.objectType, level)}[${typeText(type.indexType, level)}]`;
    case "mapped": {
      const modifier = type.readonly ? "readonly " : "";
      const member = `${modifier}[${type.parameter} in ${typeText(type.constraint, level + 1)}]${type.optional ? "?" : ""}: ${typeText(type.type, level + 1)};`;
      return `{\n${INDENT.repeat(level + 1)}${member}\n${INDENT.repeat(level)}}`;
    }
    default:
      throw new Error(`the module printer does not print ${type.kind} types`);
  }
}

function membersText(members: readonly TypeMember[], level: number): string {
  const indent = INDENT.repeat(level + 1);
  const memberLines = members.map((member) => {
    const text =
      member.kind === "method"
        ? `${member.name}(): ${typeText(member.returnType, level + 1)};`
        : `${member.readonly ? "readonly " : ""}${member.quoted ? JSON.stringify(member.name) : member.name}${member.optional ? "?" : ""}: ${typeText(member.type, level + 1)};`;
    return docsText(member, level + 1) + indent + text;
  });
  return `{\n${memberLines.join("\n")}\n${INDENT.repeat(level)}}`;
}

/** Each description as a JSDoc block ending in a newline, indented to `level`: one line when the text is one line. */
function docsText(node: Documented, level: number): string {
  const indent = INDENT.repeat(level);
  return (node.docs ?? [])
    .map((description) => {
      const text = description.replace(/\*\//g, "*\\/");
      if (!text.includes("\n")) return `${indent}/** ${text} */\n`;
      const body = text.split("\n").map((line) => (line ? `${indent} * ${line}` : `${indent} *`));
      return `${indent}/**\n${body.join("\n")}\n${indent} */\n`;
    })
    .join("");
}
