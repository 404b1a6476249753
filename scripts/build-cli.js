#!/usr/bin/env node
// The command-line program as one minified ES module (plus a chunk per lazily loaded part), so that
// a start resolves and reads a handful of files instead of a few hundred. The library (dist/index.js)
// stays as tsc writes it: typed, one module per source file.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const outdir = path.join(root, 'dist/cli-bundle');

// The bundle's files sit at other depths than src/version.ts, so its package.json look-up becomes a constant.
const inlineVersion = {
  name: 'inline-version',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]version\.ts$/ }, () => ({ contents: `export const VERSION = ${JSON.stringify(version)};`, loader: 'ts' }));
  },
};

fs.rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { swapx: 'src/cli/start.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  minify: true,
  // Stack traces name our functions; the size cost is small.
  keepNames: true,
  chunkNames: 'chunks/[name]-[hash]',
  // Some dependencies are CommonJS and call require(); give the ES module bundle one.
  banner: { js: "import { createRequire as __swapxRequire } from 'node:module'; const require = __swapxRequire(import.meta.url);" },
  legalComments: 'none',
  plugins: [inlineVersion],
  logLevel: 'warning',
});
