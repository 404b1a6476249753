/** The export tests' shared ground: one seed, a three-hour range, and the bytes a clean run writes for it. */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
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
}

/** Runs an export in-process and stops it (as Ctrl-C would) once `windows` windows are checkpointed; its manifest then. */
export async function interrupted(env: NodeJS.ProcessEnv, args: string[], file: string, windows: number, now?: number): Promise<SavedManifest> {
  const controller = new AbortController();
  const result = runSwapx(args, { env, signal: controller.signal, now });
  const manifest = `${file}.partial.manifest.json`;
  for (let i = 0; i < 1000 && !controller.signal.aborted; i += 1) {
    const m = fs.existsSync(manifest) ? (JSON.parse(fs.readFileSync(manifest, 'utf8') || '{}') as { windowsDone?: number }) : {};
    if ((m.windowsDone ?? 0) >= windows) controller.abort();
    else await sleep(10);
  }
  const r = await result;
  expect(r.code).toBe(130);
  return JSON.parse(fs.readFileSync(manifest, 'utf8')) as SavedManifest;
}
