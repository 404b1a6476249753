/**
 * A sandbox for the tests of the enclosing describe block (or file): started before them, closed after.
 * Its clock is the handle's `clock`, which a test moves between runs (a mirror synced at one clock and
 * caught up days later), so every test of a block must set it before it runs the CLI.
 */
import { afterAll, beforeAll } from 'vitest';
import path from 'node:path';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { sandboxEnv, tempDir } from './cli.js';

export interface ClockedSandbox {
  /** the sandbox clock, epoch ms */
  clock: number;
  /** valid inside tests */
  readonly sandbox: RunningSandbox;
  /** an environment for the CLI against it: demo credentials, a throw-away config dir */
  env(extra?: Record<string, string>): NodeJS.ProcessEnv;
}

export function useClockedSandbox(options: Omit<SandboxOptions, 'now' | 'port'> & { clock: number }): ClockedSandbox {
  const { clock, ...rest } = options;
  let running: RunningSandbox | undefined;
  const handle: ClockedSandbox = {
    clock,
    get sandbox() {
      if (!running) throw new Error('sandbox not started: use it inside a test');
      return running;
    },
    env: (extra = {}) => sandboxEnv(handle.sandbox.url, path.join(tempDir('swapx-cfg-'), 'cfg'), extra),
  };
  beforeAll(async () => {
    running = await startSandbox({ ...rest, port: 0, now: () => handle.clock });
  });
  afterAll(async () => {
    await running?.close();
  });
  return handle;
}

/**
 * A mirror's range across midnight (two partitions), synced at `clock1` and caught up at `clock2`, three days
 * on: the first updates of its swaps and their corrections after two days come in between.
 */
export const CAUGHT_UP = {
  since: '2026-11-10T20:00:00Z',
  until: '2026-11-11T04:00:00Z',
  clock1: Date.parse('2026-11-11T06:00:00Z'),
  clock2: Date.parse('2026-11-14T06:00:00Z'),
} as const;
