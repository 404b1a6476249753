#!/usr/bin/env node
// The command-line program as a small ES module that starts it (and answers --version) and the program itself as
// one minified CommonJS file loaded through V8's code cache, so that a start reads the bin, the start, the
// program and its cache and compiles almost nothing, instead of resolving, reading and compiling a module graph. The library (dist/index.js)
// stays as tsc writes it: typed, one module per source file.
import crypto from 'node:crypto';
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

// Built-in modules that a dependency loads when it loads, for a feature swapx never uses: each is replaced,
// for that dependency only, by a stand-in, so that no start pays for it. Measured (CPU of a `swapx swap <hash>`
// start, interleaved runs): http2 costs 12 ms on Node 20 and 26 ms on Node 24; stand-ins for commander's
// child_process and undici's assert gained 2-3 ms, inside the noise, and were dropped.
const STAND_INS = [
  {
    // undici's HTTP/2 client, used only when a dispatcher allows h2 (allowH2, off by default and never set by
    // swapx): without http2 (and tls, http with it) undici takes the path it has for a Node built without it.
    importer: /[\\/]node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/,
    module: 'node:http2',
    contents: "throw new Error('node:http2 is left out of the swapx bundle: swapx never enables HTTP/2');",
  },
];
const standIns = (list) => ({
  name: 'stand-ins',
  setup(b) {
    const used = new Set();
    for (const [index, standIn] of list.entries()) {
      b.onResolve({ filter: new RegExp(`^${standIn.module}$`) }, (args) => {
        if (!standIn.importer.test(args.importer)) return undefined;
        used.add(index);
        return { path: standIn.module, namespace: 'stand-in', pluginData: index };
      });
    }
    b.onLoad({ filter: /.*/, namespace: 'stand-in' }, (args) => ({ contents: list[args.pluginData].contents, loader: 'js' }));
    // A dependency that no longer loads the module this way is a change to look at, not to pass over.
    b.onEnd((result) => {
      if (result.errors.length > 0) return;
      const unused = list.filter((_, index) => !used.has(index));
      if (unused.length > 0) throw new Error(`build-cli: no longer loaded as expected: ${unused.map((s) => `${s.module} from ${s.importer}`).join('; ')}`);
    });
  },
});

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20.19',
  minify: true,
  // Stack traces name our functions; the size cost is small.
  keepNames: true,
  legalComments: 'none',
  logLevel: 'warning',
};

fs.rmSync(outdir, { recursive: true, force: true });

// The program (src/bin/program.ts: src/main.ts, undici and every command) as one CommonJS file:
// src/bin/program-cached.ts compiles it with V8's code cache, which Node 20 offers for scripts, not for ES modules.
// What a command loads lazily (import()) stays lazy: esbuild runs such a module's top level only when it is first imported.
const programFile = path.join(outdir, 'chunks/program.cjs');
await build({
  ...common,
  entryPoints: ['src/bin/program.ts'],
  outfile: programFile,
  format: 'cjs',
  // Wrapped as Node's CommonJS loader wraps a module, here rather than by the loader at each start (a copy of 700 kB).
  banner: { js: '(function (exports, require, module, __filename, __dirname) {' },
  footer: { js: '})' },
  // A script compiled by node:vm cannot import(): the built-ins loaded lazily (zlib, readline) are required.
  supported: { 'dynamic-import': false },
  // The Postgres driver, loaded only by a sync into Postgres, stays in node_modules: required when that sync runs,
  // not compiled into the program (and its code cache) that every start reads.
  external: ['postgres'],
  plugins: [inlineVersion, standIns(STAND_INS)],
});
const programKey = crypto.createHash('sha256').update(fs.readFileSync(programFile)).digest('hex').slice(0, 16);
const programCached = {
  name: 'program-cached',
  setup(b) {
    let resolved = false;
    b.onResolve({ filter: /^\.\.\/main\.js$/ }, (args) => {
      if (!/[\\/]src[\\/]bin[\\/]start\.ts$/.test(args.importer)) return undefined;
      resolved = true;
      return { path: path.join(root, 'src/bin/program-cached.ts') };
    });
    b.onEnd((result) => {
      if (result.errors.length === 0 && !resolved)
        throw new Error("build-cli: src/bin/start.ts no longer imports '../main.js': the program would be bundled twice");
    });
  },
};

// The start (src/bin/start.ts) as one ES module, the program's loader in it, run only when imported (not for
// `swapx --version`): one file to read before the program.
await build({
  ...common,
  entryPoints: { swapx: 'src/bin/start.ts' },
  outdir,
  format: 'esm',
  define: { SWAPX_PROGRAM_CACHE_KEY: JSON.stringify(programKey) },
  // No helper for the names of a few functions in the start.
  keepNames: false,
  plugins: [inlineVersion, programCached],
});
