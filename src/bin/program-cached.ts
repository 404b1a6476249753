/**
 * The program (src/bin/program.ts: src/main.ts and all it loads, undici included) for the bundled CLI,
 * compiled with V8's code cache. scripts/build-cli.js builds it as one CommonJS file, chunks/program.cjs, and
 * resolves src/bin/start.ts's import of '../main.js' to this module (the library, dist/, keeps tsc's modules).
 * With the cache V8 reuses the code an earlier run compiled, instead of compiling the program at each start. It is
 * made at exit, so it holds every function the run called; Node's own cache (module.enableCompileCache(), 22.1+)
 * is made as a module is compiled and holds only what that compiles. A lookup costs least with this cache (Node 20,
 * 22, 24), more with Node's (22, 24), most with none (docs/performance.md has the figures); so every Node version
 * uses this one. The cache is the user's, in their cache directory (~/.cache/swapx on Linux, as env-paths names
 * it): a global install is rarely writable by its users, and a cache others can write is code they can make us run.
 * It is named for the program's content and Node's version (V8 checks only a cache's length); where no cache can
 * be written there is none, and nothing else changes. A cache is code: it is read and written only in a directory,
 * and from a file, that this user owns and no one else can write (else `XDG_CACHE_HOME=/tmp`, a relative one, or
 * `sudo -E` with a user's HOME would run what someone else put there).
 */
import type { Stats } from 'node:fs';
import envPaths from 'env-paths';
import type * as Program from './program.js';

/** A hash of program.cjs, set by scripts/build-cli.js. */
declare const SWAPX_PROGRAM_CACHE_KEY: string;

// Taken as they are, not imported: this module is part of the start, and an ES module import of a built-in first
// copies all its exports (fs has a hundred).
const fs = process.getBuiltinModule('node:fs');
const path = process.getBuiltinModule('node:path');
const vm = process.getBuiltinModule('node:vm');
const { createRequire } = process.getBuiltinModule('node:module');
const { fileURLToPath } = process.getBuiltinModule('node:url');

const WEEK_MS = 7 * 24 * 3600 * 1000;

/** Whether only this user can change what `stats` describe: owned by them, writable by no group or other (POSIX; Windows has no uid). */
function ownedAlone(stats: Stats): boolean {
  const uid = process.getuid?.();
  return uid === undefined || (stats.uid === uid && (stats.mode & 0o022) === 0);
}

/** The cache in `file`, if it and its directory are the user's alone (a symbolic link at `file` is not followed). */
function readCache(dir: string, file: string): Buffer | undefined {
  try {
    if (!ownedAlone(fs.statSync(dir))) return undefined;
    const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    try {
      const stats = fs.fstatSync(fd);
      return stats.isFile() && ownedAlone(stats) ? fs.readFileSync(fd) : undefined;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/**
 * A tag for the flags Node was started with (NODE_OPTIONS, node's own arguments), '' without any: V8 rejects a cache
 * made under other flags, so a cron job and a shell with different ones would each rewrite the other's at every start.
 */
function flagsTag(): string {
  const flags = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ').trim();
  if (flags === '') return '';
  // FNV-1a: a name, not a secret.
  let hash = 0x811c9dc5;
  for (let i = 0; i < flags.length; i++) hash = Math.imul(hash ^ flags.charCodeAt(i), 0x01000193);
  return `-${(hash >>> 0).toString(16).padStart(8, '0')}`;
}

function load(): typeof Program {
  const file = fileURLToPath(new URL('./chunks/program.cjs', import.meta.url));
  // The XDG spec makes a relative XDG_CACHE_HOME invalid; env-paths keeps it, which would read caches from whatever
  // directory swapx runs in. Then there is no cache.
  const cacheDir = envPaths('swapx', { suffix: '' }).cache;
  const trusted = path.isAbsolute(cacheDir);
  const cacheName = `program-${SWAPX_PROGRAM_CACHE_KEY}-${process.version}-${process.arch}${flagsTag()}.v8cache`;
  const cacheFile = path.join(cacheDir, cacheName);
  const cachedData = trusted ? readCache(cacheDir, cacheFile) : undefined;
  // V8 checks a code cache's header, not its content, unless told to: a cache damaged on disk would crash every
  // start. With this flag (set at every start, as V8 keys a cache by its flags) a cache is written with a checksum
  // and one that does not match it is rejected and written again.
  process.getBuiltinModule('node:v8').setFlagsFromString('--verify-snapshot-checksum');
  // program.cjs is built wrapped as Node's CommonJS loader wraps a module: a function of exports, require, module…
  const script = new vm.Script(fs.readFileSync(file, 'utf8'), { filename: file, cachedData });
  const module = { exports: {} as typeof Program };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  const program = module.exports;
  if (trusted && (cachedData === undefined || script.cachedDataRejected === true)) {
    // At exit, so that the cache holds what this run compiled (V8 compiles most functions when first called): by a
    // run that sent a request (a cache made by `--help` would leave a lookup compiling undici at every start), and
    // only if no other run has written one since; written whole or not at all.
    const seen = cachedData === undefined ? undefined : fs.statSync(cacheFile, { throwIfNoEntry: false });
    process.once('exit', () => {
      if (!program.hasLoadedTransport()) return;
      try {
        const now = fs.statSync(cacheFile, { throwIfNoEntry: false });
        if (now !== undefined && (seen === undefined || now.mtimeMs !== seen.mtimeMs)) return;
        fs.mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
        // A directory others can write (made by them first, or opened up since) gets no cache: none would be read.
        if (!ownedAlone(fs.statSync(cacheDir))) return;
        program.writeFileAtomicSync(cacheFile, script.createCachedData(), 0o600);
        // The caches of other builds (an upgrade, another Node) are half a megabyte each: one left a week is gone.
        for (const name of fs.readdirSync(cacheDir)) {
          const other = path.join(cacheDir, name);
          if (name !== cacheName && /^program-.*\.v8cache$/.test(name) && Date.now() - fs.statSync(other).mtimeMs > WEEK_MS) fs.rmSync(other, { force: true });
        }
      } catch {
        // Not writable here: no cache.
      }
    });
  }
  return program;
}

export const { run } = load();
