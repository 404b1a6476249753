/** The export tests' shared ground: one seed, a three-hour range, and the bytes a clean run writes for it. */
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
