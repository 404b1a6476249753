#!/usr/bin/env node
// The command-line program as one minified ES module (plus a chunk per lazily loaded part, and undici
// as a CommonJS file loaded through V8's code cache), so that a start resolves and reads a handful of
// files instead of a few hundred. The library (dist/index.js) stays as tsc writes it: typed, one module
// per source file.
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
// for that dependency only, by a stand-in, so that no start pays for it (measured with `npm run bench startup`).
const COMMANDER_STAND_INS = [
  {
    // Commander spawns a process only for stand-alone executable subcommands, which swapx has none of;
    // child_process (and net, dgram with it) loads when it does.
    importer: /[\\/]node_modules[\\/]commander[\\/]lib[\\/]command\.js$/,
    module: 'node:child_process',
    contents: "module.exports = { get spawn() { return require('node:child_process').spawn; } };",
  },
];
const UNDICI_STAND_INS = [
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

// undici (src/api/undici.ts) apart, as CommonJS: src/cli/undici-cached.ts compiles it with V8's code cache,
// which Node 20 offers for scripts, not for ES modules. It shares no module with the rest of the bundle.
const undiciFile = path.join(outdir, 'chunks/undici.cjs');
await build({ ...common, entryPoints: ['src/api/undici.ts'], outfile: undiciFile, format: 'cjs', plugins: [standIns(UNDICI_STAND_INS)] });
const undiciKey = crypto.createHash('sha256').update(fs.readFileSync(undiciFile)).digest('hex').slice(0, 16);
const undiciCached = {
  name: 'undici-cached',
  setup(b) {
    let resolved = false;
    b.onResolve({ filter: /^\.\/undici\.js$/ }, (args) => {
      if (!/[\\/]src[\\/]api[\\/]http\.ts$/.test(args.importer)) return undefined;
      resolved = true;
      return { path: path.join(root, 'src/cli/undici-cached.ts') };
    });
    b.onEnd((result) => {
      if (result.errors.length === 0 && !resolved) throw new Error("build-cli: src/api/http.ts no longer imports './undici.js': undici would be bundled twice");
    });
  },
};

await build({
  ...common,
  entryPoints: { swapx: 'src/cli/start.ts' },
  outdir,
  splitting: true,
  format: 'esm',
  chunkNames: 'chunks/[name]-[hash]',
  // Some dependencies are CommonJS and call require(); give the ES module bundle one.
  banner: { js: "import { createRequire as __swapxRequire } from 'node:module'; const require = __swapxRequire(import.meta.url);" },
  define: { SWAPX_UNDICI_CACHE_KEY: JSON.stringify(undiciKey) },
  plugins: [inlineVersion, standIns(COMMANDER_STAND_INS), undiciCached],
});
