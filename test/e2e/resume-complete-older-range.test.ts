/**
 * `--resume` of a complete FILE exited 0 "complete already" also when the range was read against the clock. An hourly cron line `swapx swaps --last 1h -o latest.jsonl --resume -q || alert` exports once and then, every
 * hour after, keeps the first hour's swaps and exits 0: a stale export, and no alert.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';
import { DATA, envIn } from '../helpers/swaps-fixture.js';

let plain: RunningSandbox;
let dir: string;

beforeAll(async () => {
  dir = tempDir();
  plain = await startSandbox({ port: 0, ...DATA });
});
afterAll(async () => {
  await plain.close();
});

describe('swapx swaps --last … --resume of a complete FILE', () => {
  it('does not report a file of another range "complete already" with exit 0', async () => {
    const file = path.join(dir, 'latest.jsonl');
    const args = ['swaps', '--last', '1h', '-o', file, '--resume', '-q'];
    const first = await runSwapx(args, { env: envIn(dir, plain), now: Date.parse('2026-11-02T01:00:00Z') });
    expect(first.code).toBe(0);
    const firstHour = fs.readFileSync(file, 'utf8');
    // The run's clock is injected; the file's is the disk's: it was finished at the run's own time.
    const finished = new Date('2026-11-02T01:00:05Z');
    fs.utimesSync(file, finished, finished);
    const twoHoursLater = await runSwapx(args, { env: envIn(dir, plain), now: Date.parse('2026-11-02T03:00:00Z') });
    // It was exit 0, "latest.jsonl is complete already", with the file still holding 00:00-01:00, not 02:00-03:00.
    expect(fs.readFileSync(file, 'utf8')).toBe(firstHour);
    expect(twoHoursLater).toMatchObject({
      code: 2,
      stderr: `swapx: error: ${file} was finished at 2026-11-02T01:00:05Z, before this range ends (2026-11-02T03:00:00Z), so it holds another range; use a file name per range, or add --force to export again\n`,
    });
  });
});
