#!/usr/bin/env node
// The chaos run (scripts/chaos/*.ts) as one ES module, dist/chaos/chaos.js, so that `npm run chaos` runs
// it with plain Node (20 has no type stripping). The sandbox it starts is bundled from src; the CLI it
// drives is the built bin/swapx.js.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
await build({
  absWorkingDir: root,
  entryPoints: { chaos: 'scripts/chaos/run.ts' },
  outdir: path.join(root, 'dist/chaos'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  // Dependencies stay in node_modules, imported as they are.
  packages: 'external',
  logLevel: 'warning',
});
