/**
 * `swapx swaps` took no lock on -o FILE (sync does). A second `--resume` of the same export while the
 * first still runs (two cron runs overlapping, a user re-running the printed command) appends to the same .partial at
 * the same offsets; whichever finishes second fails at the rename and then claims its windows are "saved in
 * FILE.partial", a file that no longer exists. (With data that changed between the two runs, the offsets would differ
 * and the file would be corrupt.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';
import { DATA, envIn, range, referenceExport } from '../helpers/swaps-fixture.js';

let slow: RunningSandbox;
let dir: string;
let reference: string;

beforeAll(async () => {
  dir = tempDir();
  slow = await startSandbox({ port: 0, ...DATA, latencyMs: 40 });
  reference = await referenceExport(envIn(dir, slow));
});
afterAll(async () => {
  await slow.close();
});

describe('swapx swaps: two runs on one -o FILE', () => {
  it('the second is refused up front, and no run points at a .partial that does not exist', async () => {
    const file = path.join(dir, 'twice.jsonl');
    const args = ['swaps', ...range, '--window', '5m', '--concurrency', '1', '-o', file, '--resume'];
    const first = runSwapx(args, { env: envIn(dir, slow) });
    const manifest = `${file}.partial.manifest.json`;
    for (let i = 0; i < 1000; i += 1) {
      const m = fs.existsSync(manifest) ? (JSON.parse(fs.readFileSync(manifest, 'utf8') || '{}') as { windowsDone?: number }) : {};
      if ((m.windowsDone ?? 0) >= 2) break;
      await sleep(10);
    }
    const second = await runSwapx(args, { env: envIn(dir, slow) });
    const one = await first;
    // It was: the second resumed the first's .partial while it was being written ("Resuming: 7/36 windows already
    // done"), and whichever finished last exited 1 claiming windows "saved in FILE.partial", though none existed.
    expect(second.stderr).not.toMatch(/^Resuming: /);
    expect(second.code).not.toBe(0);
    expect(one.code).toBe(0);
    expect(`${one.stderr}${second.stderr}`).not.toMatch(/windows saved in /);
    expect(fs.readFileSync(file, 'utf8')).toBe(reference);
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('twice.jsonl'))).toEqual(['twice.jsonl']);
  });
});
