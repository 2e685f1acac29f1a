#!/usr/bin/env node
// The browser client's size: @codex-rpc/core plus @codex-rpc/websocket's browser entry, bundled
// for the browser as a page would (esbuild, platform "browser", the "browser" export condition,
// minified), then gzipped (level 9). Prints a table; fails (exit 1) when the browser bundle pulls
// a Node module (node:*, a Node built-in, ws) or when core + the browser transport without rxjs is
// above the target (15 KB min+gzip, issue 15). Builds from the packages' dist/: build first.
//
// Usage: node tools/bundle-size.mjs [--json] [--target-kb 15] [--top 12]
//   --json   one JSON object on stdout instead of the table (for tests)
//   --top N  also list the N largest modules of the target bundle (esbuild's metafile)
import { builtinModules } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const KB = 1024;

/** What a page imports: the client and the browser transport (its relay helper included). */
const PAGE = `import { CodexClient } from "@codex-rpc/core";
import { openRelayTransport, openWebSocketTransport } from "@codex-rpc/websocket";
export { CodexClient, openRelayTransport, openWebSocketTransport };`;
/** A page that validates (`validate: true`) loads the validators when it connects: counted as if imported up front. */
const VALIDATORS = `export * as incoming from "@codex-rpc/protocol/validators/incoming";
export * as outgoing from "@codex-rpc/protocol/validators/outgoing";`;
/** Everything both entries export, nothing shaken off. */
const EVERYTHING = `export * from "@codex-rpc/core"; export * from "@codex-rpc/websocket";`;

const RXJS = ["rxjs", "rxjs/*"];
/** The name of the page's module in the bundle (its chunk is the entry point of that name). */
const PAGE_FILE = "page.js";
const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** The bundles measured: the first is the target. */
export const BUNDLES = [
  { name: "core + browser transport", contents: PAGE, rxjs: false, validators: false, target: true },
  { name: "core + browser transport + validators", contents: `${PAGE}\n${VALIDATORS}`, rxjs: false, validators: true },
  { name: "core + browser transport + rxjs", contents: PAGE, rxjs: true, validators: false },
  { name: "core + browser transport + validators + rxjs", contents: `${PAGE}\n${VALIDATORS}`, rxjs: true, validators: true },
  { name: "every export of both (nothing shaken off)", contents: EVERYTHING, rxjs: false, validators: false },
];

/**
 * Bundles one page for the browser. A module that only Node has fails the build (it cannot be
 * resolved for platform "browser"), and so does a file of `ws` or an import left external that
 * is not rxjs: each is reported in `nodeModules`.
 */
export async function measure(bundle) {
  const nodeModules = [];
  const result = await build({
    stdin: { contents: bundle.contents, resolveDir: ROOT, loader: "js", sourcefile: PAGE_FILE },
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    conditions: ["browser"],
    minify: true,
    // Chunks, as a page's bundler makes them: what loads on demand (the validators) is not in the first load.
    splitting: true,
    outdir: join(ROOT, "bundle-size-out"),
    metafile: true,
    legalComments: "none",
    external: bundle.rxjs ? [] : RXJS,
    logLevel: "silent",
    plugins: [
      {
        name: "no-node-modules",
        setup(pluginBuild) {
          pluginBuild.onResolve({ filter: /.*/ }, (args) => {
            if (NODE_BUILTINS.has(args.path) || args.path.startsWith("node:")) {
              nodeModules.push(`${args.path} (imported by ${relative(ROOT, args.importer)})`);
              return { path: args.path, external: true };
            }
            return undefined;
          });
        },
      },
    ],
  }).catch((error) => ({ error }));
  if ("error" in result) return { ...bundle, error: String(result.error.message ?? result.error), nodeModules };
  const files = new Map(result.outputFiles.map((file) => [relative(ROOT, file.path), file.contents]));
  const outputs = result.metafile.outputs;
  // The first load: the entry chunk and the chunks it imports statically, not those it import()s.
  const initial = new Set();
  const visit = (name) => {
    if (initial.has(name)) return;
    initial.add(name);
    for (const imported of outputs[name].imports) if (imported.kind === "import-statement" && !imported.external) visit(imported.path);
  };
  // The page's own chunk (what it import()s is an entry point too, and may come first).
  visit(Object.keys(outputs).find((name) => outputs[name].entryPoint === PAGE_FILE));
  const output = Buffer.concat([...initial].map((name) => files.get(name)));
  const lazy = Object.keys(outputs).filter((name) => !initial.has(name) && files.has(name));
  const lazyBytes = lazy.reduce((sum, name) => sum + gzipSync(files.get(name), { level: 9 }).length, 0);
  const inputs = Object.keys(result.metafile.inputs);
  for (const file of inputs) if (/node_modules\/(\.pnpm\/)?ws[@/]/.test(file)) nodeModules.push(`${file} (the ws package)`);
  const modules = [...initial]
    .flatMap((name) => Object.entries(outputs[name].inputs))
    .map(([file, { bytesInOutput }]) => ({ file: relative(ROOT, join(ROOT, file)), bytes: bytesInOutput }))
    .sort((a, b) => b.bytes - a.bytes);
  return { ...bundle, minified: output.length, gzipped: gzipSync(output, { level: 9 }).length, lazyGzipped: lazyBytes, modules, nodeModules };
}

function kb(bytes) {
  return `${(bytes / KB).toFixed(1)} KB`;
}

function parseArgs(argv) {
  const options = { json: false, targetKb: 15, top: 0 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--json") options.json = true;
    else if (argv[i] === "--target-kb") options.targetKb = Number(argv[++i]);
    else if (argv[i] === "--top") options.top = Number(argv[++i]);
    else throw new TypeError(`bundle-size: unknown argument ${argv[i]}`);
  }
  if (!(options.targetKb > 0)) throw new TypeError("bundle-size: --target-kb takes a number of KB above 0");
  return options;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const results = [];
  for (const bundle of BUNDLES) results.push(await measure(bundle));
  const target = results.find((result) => result.target);
  const failures = [];
  for (const result of results) {
    if (result.error) failures.push(`${result.name}: the browser build failed: ${result.error}`);
    for (const module of result.nodeModules) failures.push(`${result.name}: pulls a Node module: ${module}`);
  }
  if (target.gzipped > options.targetKb * KB) {
    failures.push(`${target.name}: ${kb(target.gzipped)} min+gzip, above the target of ${options.targetKb} KB`);
  }
  if (options.json) {
    const strip = ({ contents: _contents, modules, ...rest }) => ({ ...rest, modules: modules?.slice(0, options.top || 10) });
    console.log(JSON.stringify({ targetKb: options.targetKb, bundles: results.map(strip), failures }));
  } else {
    console.log("| bundle (browser, minified) | min | min+gzip | loaded on demand (min+gzip) |");
    console.log("|---|---:|---:|---:|");
    for (const result of results) {
      const lazy = result.lazyGzipped > 0 ? kb(result.lazyGzipped) : "—";
      console.log(result.error ? `| ${result.name} | failed | failed | |` : `| ${result.name} | ${kb(result.minified)} | ${kb(result.gzipped)} | ${lazy} |`);
    }
    console.log(`\ntarget: ${target.name} ≤ ${options.targetKb} KB min+gzip (rxjs excluded)`);
    if (options.top > 0) {
      console.log(`\nlargest modules of "${target.name}" (minified bytes in the bundle):`);
      for (const module of target.modules.slice(0, options.top)) console.log(`${String(module.bytes).padStart(8)}  ${module.file}`);
    }
    for (const failure of failures) console.error(`bundle-size: ${failure}`);
  }
  process.exitCode = failures.length > 0 ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
