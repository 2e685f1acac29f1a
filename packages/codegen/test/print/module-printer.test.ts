import { describe, expect, it } from "vitest";
import { access, call, frozen, identifier, string, verbatimModule, type ModuleNode } from "../../src/nodes/module-nodes.js";
import { literal, property, reference } from "../../src/nodes/type-nodes.js";
import { printModule } from "../../src/print/module-printer.js";

describe("module printer", () => {
  it("prints paragraphs: statements on consecutive lines, a blank line between paragraphs, a final newline", () => {
    const module: ModuleNode = {
      kind: "module",
      paragraphs: [
        [
          { kind: "import", typeOnly: false, names: ["A", "B"], from: "./a.js", multiline: false },
          { kind: "import", typeOnly: true, names: ["C", "D"], from: "./c.js", multiline: true },
        ],
        [
          { kind: "exportAll", typeOnly: true, from: "./types.js" },
          { kind: "exportAll", typeOnly: false, from: "./a.js" },
        ],
      ],
    };
    expect(printModule(module)).toBe(
      'import { A, B } from "./a.js";\nimport type {\n  C,\n  D,\n} from "./c.js";\n\nexport type * from "./types.js";\nexport * from "./a.js";\n',
    );
  });

  it("prints frozen object and array literals one entry a line, with trailing commas, and an arrow", () => {
    const module: ModuleNode = {
      kind: "module",
      paragraphs: [
        [
          {
            kind: "exportConst",
            name: "table",
            comment: "Why it is frozen.",
            value: frozen({
              kind: "object",
              properties: [
                { name: "plain", value: identifier("x") },
                { name: "a/b", quoted: true, value: call(identifier("optional"), identifier("y")) },
                { name: "nested", value: { kind: "array", elements: [string("é"), string('"')] } },
                { name: "load", value: { kind: "arrow", parameters: ["m"], body: call(access("m.load")) } },
              ],
            }),
          },
        ],
      ],
    };
    expect(printModule(module)).toBe(
      [
        "// Why it is frozen.",
        "export const table = /* @__PURE__ */ Object.freeze({",
        "  plain: x,",
        '  "a/b": optional(y),',
        "  nested: [",
        '    "é",',
        '    "\\"",',
        "  ],",
        "  load: (m) => m.load(),",
        "});",
        "",
      ].join("\n"),
    );
  });

  it("keeps an empty literal's two line breaks, as methods.js always had them", () => {
    const module: ModuleNode = { kind: "module", paragraphs: [[{ kind: "exportConst", name: "NONE", value: frozen({ kind: "array", elements: [] }) }]] };
    expect(printModule(module)).toBe("export const NONE = /* @__PURE__ */ Object.freeze([\n\n]);\n");
  });

  it("prints declarations with one-line or block JSDoc, readonly members, methods and typeof", () => {
    const module: ModuleNode = {
      kind: "module",
      paragraphs: [
        [
          { kind: "declareConst", name: "VERSION", type: literal("1.0"), docs: ["One line."] },
          {
            kind: "declareConst",
            name: "value",
            docs: ["Two\nlines."],
            type: {
              kind: "typeLiteral",
              members: [
                property("version", { kind: "typeQuery", name: "VERSION" }, { readonly: true }),
                { kind: "method", name: "load", returnType: reference("Promise", [reference("Thing")]) },
                { ...property("types", reference("Types"), { readonly: true, optional: true }), docs: ["Nested."] },
              ],
            },
          },
        ],
      ],
    };
    expect(printModule(module)).toBe(
      [
        "/** One line. */",
        'export declare const VERSION: "1.0";',
        "/**",
        " * Two",
        " * lines.",
        " */",
        "export declare const value: {",
        "  readonly version: typeof VERSION;",
        "  load(): Promise<Thing>;",
        "  /** Nested. */",
        "  readonly types?: Types;",
        "};",
        "",
      ].join("\n"),
    );
  });

  it("prints verbatim text as it is, and refuses the type forms it has no rules for", () => {
    expect(printModule(verbatimModule("function f() {}"))).toBe("function f() {}\n");
    const union: ModuleNode = {
      kind: "module",
      paragraphs: [[{ kind: "declareConst", name: "x", type: { kind: "union", members: [literal(1), literal(2)] } }]],
    };
    expect(() => printModule(union)).toThrow("the module printer does not print union types");
  });
});
