/**
 * A second SIGINT or SIGTERM (a double Ctrl-C; coreutils `timeout`, which signals the process and then its group)
 * may end an export sooner, but its lock is still released and the resume command still printed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { collect, spawnCli, tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';
import { DATA, FROM, TO, envIn, range } from '../helpers/swaps-fixture.js';

let slow: RunningSandbox;
let dir: string;

beforeAll(async () => {
  dir = tempDir();
  slow = await startSandbox({ port: 0, ...DATA, latencyMs: 40 });
});
afterAll(async () => {
  await slow.close();
});

async function windowsDone(manifest: string): Promise<void> {
  for (let i = 0; i < 3000; i += 1) {
    const text = fs.existsSync(manifest) ? fs.readFileSync(manifest, 'utf8') : '';
    if (((JSON.parse(text || '{}') as { windowsDone?: number }).windowsDone ?? 0) >= 1) return;
    await sleep(10);
  }
}

describe.concurrent('swapx swaps -o FILE: two signals at once', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s twice: exit 130, the lock released, the resume command printed, resumable',
    async (signal) => {
      const file = path.join(dir, `twice-${signal}.jsonl`);
      const args = ['swaps', ...range, '--window', '5m', '--concurrency', '1', '-o', file];
      const child = spawnCli(args, { env: envIn(dir, slow) });
      const done = collect(child);
      await windowsDone(`${file}.partial.manifest.json`);
      // As `timeout` does (the process, then its group): the later ones find the first still being handled. Signals
      // sent at once may merge into one (the kernel queues one of a kind): a few, a moment apart.
      for (let i = 0; i < 3; i += 1) {
        child.kill(signal);
        await sleep(1);
      }
      const r = await done;
      // One that lands while Node is already exiting meets the signal's default again: the process then ends by that
      // signal, which a shell reports as 128+n too. Either way the last words below were said first.
      expect([130, signal]).toContain(r.code ?? r.signal);
      expect(r.stderr).toMatch(
        new RegExp(
          `^swapx: interrupted; \\d+/36 windows saved in ${file}\\.partial; resume with: swapx swaps --from ${FROM} --to ${TO} --window 5m -o ${file} --resume\\n$`,
        ),
      );
      expect(fs.existsSync(`${file}.partial.lock`)).toBe(false);
      const resumed = await runSwapx([...args, '--resume', '-q'], { env: envIn(dir, slow) });
      expect([resumed.code, resumed.stderr]).toEqual([0, '']);
      const whole = await runSwapx(['swaps', ...range, '--jsonl', '-q'], { env: envIn(dir, slow) });
      expect(fs.readFileSync(file, 'utf8')).toBe(whole.stdout);
    },
    60_000,
  );
});
