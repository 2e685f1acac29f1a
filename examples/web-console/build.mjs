#!/usr/bin/env node
// @ts-check
// Builds the web console with esbuild: src/main.ts and everything it imports (@codex-rpc/core, the
// WebSocket transport's browser entry, rxjs) into one minified app.js, next to index.html and
// style.css. The relay package runs it into packages/relay/console/ (what `codex-rpc-relay --open`
// serves).
//
//   node examples/web-console/build.mjs [OUT_DIR]     (default: examples/web-console/dist)
import { copyFile, mkdir, readFile, rm } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(process.argv[2] ?? join(here, "dist"));
await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
const result = await build({
  entryPoints: [join(here, "src", "main.ts")],
  outdir: out,
  entryNames: "app",
  // The generated validators (~1.5 MB, 4 MB of source maps) are loaded by a dynamic import only
  // with `validate`, which this page never passes: left out of the build (the import stays, unbundled
  // and never run), so the relay's tarball does not carry them.
  external: ["./validators.js", "@codex-rpc/protocol/validators"],
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  format: "esm",
  platform: "browser", // the "browser" export condition: the WebSocket transport's browser entry
  target: "es2022",
  minify: true,
  sourcemap: true,
  metafile: true,
  logLevel: "warning",
});
await copyFile(join(here, "index.html"), join(out, "index.html"));
await copyFile(join(here, "style.css"), join(out, "style.css"));
// No Node module may reach the page.
const nodeImports = Object.keys(result.metafile.inputs).filter((input) => input.startsWith("node:") || /\/ws\/|\/@codex-rpc\/stdio\//.test(input));
if (nodeImports.length > 0) throw new Error(`the console bundle pulled in Node modules: ${nodeImports.join(", ")}`);
const app = await readFile(join(out, "app.js"));
console.log(`web console built into ${out}: app.js ${(app.length / 1024).toFixed(1)} KB min, ${(gzipSync(app).length / 1024).toFixed(1)} KB min+gzip`);
