/**
 * A small cache of what the API answers the same for days (the chain list), one JSON file per entry. A cache is a
 * courtesy: a file missing, stale, unreadable or not written is the same as no cache, never an error.
 */
import fs from 'node:fs';
import path from 'node:path';
import envPaths from 'env-paths';
import { writeFileAtomic } from '../fs/atomic-file.js';

export const DAY_MS = 86_400_000;

/**
 * Where the cache lives: beside the profiles when SWAPX_CONFIG_DIR names their folder (tests and cron keep all of
 * swapx there, and a test's cache stays its own), else the OS cache folder (~/.cache/swapx).
 */
export function cacheDir(env: NodeJS.ProcessEnv): string {
  return env.SWAPX_CONFIG_DIR ? path.join(env.SWAPX_CONFIG_DIR, 'cache') : envPaths('swapx', { suffix: '' }).cache;
}

interface Entry {
  savedAt: number;
  value: unknown;
}

/** The value saved under `name` less than `ttlMs` before `now`, if `check` accepts it. */
export function readCache<T>(env: NodeJS.ProcessEnv, name: string, now: number, ttlMs: number, check: (value: unknown) => value is T): T | undefined {
  try {
    const entry = JSON.parse(fs.readFileSync(path.join(cacheDir(env), `${name}.json`), 'utf8')) as Partial<Entry>;
    const age = now - Number(entry.savedAt);
    // A clock set back makes an entry look saved in the future: it is not trusted either.
    if (!(age >= 0 && age < ttlMs)) return undefined;
    return check(entry.value) ? entry.value : undefined;
  } catch {
    return undefined;
  }
}

/** Saves `value` under `name`, whole or not at all; a folder that cannot be written is left as it is. */
export async function writeCache(env: NodeJS.ProcessEnv, name: string, value: unknown, now: number): Promise<void> {
  const dir = cacheDir(env);
  try {
    await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFileAtomic(path.join(dir, `${name}.json`), `${JSON.stringify({ savedAt: now, value } satisfies Entry)}\n`, { mode: 0o600 });
  } catch {
    // The next lookup asks the API again.
  }
}
