/**
 * undici for the bundled CLI, compiled with V8's code cache. scripts/build-cli.js builds src/api/undici.ts
 * apart, as chunks/undici.cjs, and resolves src/api/http.ts's import of './undici.js' to this module (the
 * library, dist/, imports undici itself). Compiling undici was a large part of a lookup's start; with the
 * cache V8 reuses the code it compiled before (measured: about 9 ms of CPU a start). The cache sits beside
 * the bundle and is named for the content of undici.cjs (V8 checks only its length); where that directory is
 * not writable there is no cache, and nothing else changes.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import type * as Undici from '../api/undici.js';
import { writeFileAtomicSync } from '../output/atomic-file.js';

/** A hash of undici.cjs, set by scripts/build-cli.js. */
declare const SWAPX_UNDICI_CACHE_KEY: string;

function load(): typeof Undici {
  const file = fileURLToPath(new URL('./undici.cjs', import.meta.url));
  const cacheFile = path.join(path.dirname(file), `undici-${SWAPX_UNDICI_CACHE_KEY}-${process.version}-${process.arch}.v8cache`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // As Node's CommonJS loader wraps a module.
  const source = `(function (exports, require, module, __filename, __dirname) { ${fs.readFileSync(file, 'utf8')}\n})`;
  const script = new vm.Script(source, { filename: file, cachedData });
  const module = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  if (cachedData === undefined || script.cachedDataRejected === true) {
    // After the module ran, so that the cache also holds what its loading compiled; written whole or not at all.
    try {
      writeFileAtomicSync(cacheFile, script.createCachedData(), 0o644);
    } catch {
      // Not writable here: no cache.
    }
  }
  // undici.cjs is src/api/undici.ts, bundled.
  return module.exports as typeof Undici;
}

export const { Agent, request } = load();
