/** The export tests' shared ground: one seed, a three-hour range, and the bytes a clean run writes for it. */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv } from './cli.js';
import { runSwapx } from './run.js';

/** The sandbox data of these tests: a quarter of the default rate, 1,500 swaps in the range (with this seed, some on window edges). */
export const DATA = { seed: 13, swapsPerHour: 500 };
export const FROM = '2026-11-02T00:00:00Z';
export const TO = '2026-11-02T03:00:00Z';
export const range = ['--from', FROM, '--to', TO];

/** Env for a sandbox, with the profile store under `dir`. */
export function envIn(dir: string, sandbox: RunningSandbox): NodeJS.ProcessEnv {
  return sandboxEnv(sandbox.url, path.join(dir, 'cfg'));
}

/** JSON Lines of the whole range, one window at a time: what every other run must reproduce byte for byte. */
export async function referenceExport(env: NodeJS.ProcessEnv): Promise<string> {
  const r = await runSwapx(['swaps', ...range, '--jsonl', '--concurrency', '1', '-q'], { env });
  expect(r.code).toBe(0);
  return r.stdout;
}

/** What an interrupted export's manifest says (the fields these tests read). */
export interface SavedManifest {
  windowsDone: number;
  windowsTotal: number;
  bytes: number;
  /** the format's checkpoint (Parquet: its row groups), once it has one */
  formatState?: unknown;
}

/**
 * A signal that aborts (as Ctrl-C would) once the manifest beside an export's FILE says `ready`, read every few ms
 * while the export runs; `stop` ends the watch.
 */
export function abortWhenSaved(file: string, ready: (saved: Partial<SavedManifest>) => boolean): { signal: AbortSignal; stop: () => void } {
  const controller = new AbortController();
  const manifest = `${file}.partial.manifest.json`;
  const watch = setInterval(() => {
    try {
      if (ready(JSON.parse(fs.readFileSync(manifest, 'utf8')) as Partial<SavedManifest>)) controller.abort();
    } catch {
      // not written yet (or being replaced)
    }
  }, 5);
  return { signal: controller.signal, stop: () => clearInterval(watch) };
}

/** Runs an export in-process and stops it (as Ctrl-C would) once `windows` windows are checkpointed; its manifest then. */
export async function interrupted(env: NodeJS.ProcessEnv, args: string[], file: string, windows: number, now?: number): Promise<SavedManifest> {
  const watch = abortWhenSaved(file, (saved) => (saved.windowsDone ?? 0) >= windows);
  const r = await runSwapx(args, { env, signal: watch.signal, now });
  watch.stop();
  expect(r.code).toBe(130);
  return JSON.parse(fs.readFileSync(`${file}.partial.manifest.json`, 'utf8')) as SavedManifest;
}
