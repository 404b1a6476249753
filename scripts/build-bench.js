#!/usr/bin/env node
// The bench (scripts/bench/*.ts) as ES modules in dist/bench/, so that `npm run bench` runs it with plain
// Node (20 has no type stripping): bench.js (the parts), bare-client.js (the latency part's reference
// client, a process of its own), duckdb-copy.js (the Parquet part's reference, DuckDB's COPY, a process of its
// own) and parquet-libs.js (how the Parquet writer was chosen; run by hand).
// What the bench takes from src (window planning, the sandbox's delay draw) is bundled in; the CLI it
// measures is the built bin/swapx.js.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist/bench');

fs.rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: {
    bench: 'scripts/bench/run.ts',
    'bare-client': 'scripts/bench/bare-client.ts',
    'parquet-libs': 'scripts/bench/parquet-libs.ts',
    'duckdb-copy': 'scripts/bench/duckdb-copy.ts',
  },
  outdir,
  bundle: true,
  // parquet-libs loads each candidate only in the child that measures it: dynamic imports stay chunks of their own.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  // Dependencies stay in node_modules, imported as they are.
  packages: 'external',
  logLevel: 'warning',
  // src/version.ts reads ../package.json beside src/ or dist/, which dist/bench/chunks/ is not: the version is put in.
  plugins: [
    {
      name: 'version',
      setup(on) {
        on.onResolve({ filter: /\/version\.js$/ }, (args) =>
          args.importer.includes(`${path.sep}src${path.sep}`) ? { path: 'version', namespace: 'version' } : undefined,
        );
        on.onLoad({ filter: /.*/, namespace: 'version' }, () => ({
          contents: `export const VERSION = ${JSON.stringify(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version)};`,
          loader: 'js',
        }));
      },
    },
  ],
});
