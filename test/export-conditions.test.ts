// Each runtime gets its own entry, and a bundle for one runtime never pulls in another's modules:
// the published packages are bundled with esbuild under each export condition and the result is
// inspected (which files went in, which imports were left out, which runtime globals it names).
import { build, type Metafile } from "esbuild";
import { relative } from "node:path";
import ts from "typescript";
import { expect, it } from "vitest";

interface Bundle {
  /** Files that went into the bundle, relative to the repository. */
  readonly inputs: readonly string[];
  /** Imports left for the runtime to resolve (`node:*` and other built-ins). */
  readonly externals: readonly string[];
  readonly code: string;
}

async function bundle(specifier: string, condition: "browser" | "node" | "deno" | "bun"): Promise<Bundle> {
  const result = await build({
    stdin: { contents: `export * from ${JSON.stringify(specifier)};`, resolveDir: process.cwd(), loader: "js" },
    bundle: true,
    write: false,
    format: "esm",
    platform: condition === "browser" ? "browser" : condition === "node" ? "node" : "neutral",
    conditions: condition === "browser" || condition === "node" ? [] : [condition],
    mainFields: ["module", "main"],
    external: ["node:*"],
    metafile: true,
    logLevel: "silent",
  });
  const metafile: Metafile = result.metafile;
  const externals = Object.values(metafile.inputs).flatMap((input) => input.imports.filter((i) => i.external).map((i) => i.path));
  return {
    inputs: Object.keys(metafile.inputs).map((file) => relative(process.cwd(), file)),
    externals: [...new Set(externals)],
    code: result.outputFiles[0]!.text,
  };
}

/** Where TypeScript (nodenext, from an ES module) finds a specifier's declarations: the `types` condition. */
function declarationsOf(specifier: string): string | undefined {
  const options = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext };
  const from = `${process.cwd()}/test/export-conditions.test.ts`;
  const resolved = ts.resolveModuleName(specifier, from, options, ts.sys, undefined, undefined, ts.ModuleKind.ESNext).resolvedModule;
  return resolved && relative(process.cwd(), resolved.resolvedFileName);
}

const fromWs = (bundle: Bundle) => bundle.inputs.filter((file) => /node_modules\/(\.pnpm\/)?ws[@/]/.test(file));
const nodeBuiltins = (bundle: Bundle) =>
  bundle.externals.filter(
    (path) => path.startsWith("node:") || /^(fs|path|os|child_process|net|http|https|tls|events|stream|crypto|url|zlib|buffer)$/.test(path),
  );
/** Uses of a runtime's global namespace (`Deno.Command`, `Bun.spawn`, `process.env` …), not the word in a string. */
const GLOBAL_USE: Readonly<Record<string, RegExp>> = {
  // Not a property or private field of the same name (`this.#process.pid`).
  Deno: /(?<![.#\w])Deno\.[A-Za-z]/,
  Bun: /(?<![.#\w])Bun\.[a-z]/,
  process: /(?<![.#\w])process\.(env|argv|exit|kill|platform|on|versions|execPath|pid)\b/,
};
const runtimeGlobals = (bundle: Bundle, names: readonly string[]) => names.filter((name) => GLOBAL_USE[name]!.test(bundle.code));

it("@codex-rpc/websocket: the browser gets browser.js — no ws, no node built-ins, no Deno or Bun", async () => {
  const browser = await bundle("@codex-rpc/websocket", "browser");
  expect(browser.inputs).toContain("packages/websocket/dist/browser.js");
  expect(browser.inputs).not.toContain("packages/websocket/dist/node.js");
  expect(fromWs(browser)).toEqual([]);
  expect(nodeBuiltins(browser)).toEqual([]);
  expect(runtimeGlobals(browser, ["Deno", "Bun"])).toEqual([]);
});

it("@codex-rpc/websocket: Deno and Bun get the portable entry — no ws, no node built-ins", async () => {
  for (const condition of ["deno", "bun"] as const) {
    const runtime = await bundle("@codex-rpc/websocket", condition);
    expect(runtime.inputs, condition).toContain("packages/websocket/dist/index.js");
    expect(
      runtime.inputs.filter((file) => /dist\/(node|browser)\.js$/.test(file)),
      condition,
    ).toEqual([]);
    expect(fromWs(runtime), condition).toEqual([]);
    expect(nodeBuiltins(runtime), condition).toEqual([]);
  }
});

it("@codex-rpc/websocket: Node gets node.js, which can reach ws (Node 20, Unix sockets)", async () => {
  const node = await bundle("@codex-rpc/websocket", "node");
  expect(node.inputs).toContain("packages/websocket/dist/node.js");
  expect(fromWs(node).length).toBeGreaterThan(0);
  expect(runtimeGlobals(node, ["Deno", "Bun"])).toEqual([]);
});

it("@codex-rpc/core runs anywhere: no node built-ins and no runtime globals in any bundle", async () => {
  for (const condition of ["browser", "deno", "bun", "node"] as const) {
    const core = await bundle("@codex-rpc/core", condition);
    expect(nodeBuiltins(core), condition).toEqual([]);
    expect(runtimeGlobals(core, ["Deno", "Bun", "process"]), condition).toEqual([]);
  }
});

/** Core's entries (package.json `exports`) and the file each is built to. */
const CORE_ENTRIES = {
  "@codex-rpc/core": "index",
  "@codex-rpc/core/transport": "transport",
  "@codex-rpc/core/process": "process",
  "@codex-rpc/core/testing": "testing",
};

it("@codex-rpc/core: each entry resolves to its own file for Node and the browser (imports) and to its declarations for types", async () => {
  for (const [specifier, file] of Object.entries(CORE_ENTRIES)) {
    // `export * from` is an import: esbuild resolves it under the `import` condition as well.
    for (const condition of ["node", "browser"] as const) {
      expect((await bundle(specifier, condition)).inputs, `${specifier} (${condition})`).toContain(`packages/core/dist/${file}.js`);
    }
    expect(declarationsOf(specifier), specifier).toBe(`packages/core/dist/${file}.d.ts`);
  }
});

it("@codex-rpc/core: the browser bundles of the main, transport and testing entries need no node built-ins nor runtime globals", async () => {
  for (const specifier of ["@codex-rpc/core", "@codex-rpc/core/transport", "@codex-rpc/core/testing"]) {
    const browser = await bundle(specifier, "browser");
    expect(nodeBuiltins(browser), specifier).toEqual([]);
    expect(runtimeGlobals(browser, ["Deno", "Bun", "process"]), specifier).toEqual([]);
  }
});

it("@codex-rpc/core: the main entry's bundle takes nothing of the process and testing entries (users never load the fake server)", async () => {
  const main = await bundle("@codex-rpc/core", "browser");
  expect(main.inputs.filter((file) => /^packages\/core\/dist\/(process|testing)(\.js$|\/)/.test(file))).toEqual([]);
});
