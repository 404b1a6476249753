/** `swapx swaps --resume`: what is on disk between runs must never turn into wrong bytes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';
import { DATA, envIn, interrupted, range, referenceExport } from '../helpers/swaps-fixture.js';

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

describe('swapx swaps --resume: a partial file shorter than its manifest says', () => {
  it('never pads the export with NUL bytes: it refuses (exit 2) or fetches again, and the file ends as an uninterrupted run', async () => {
    const file = path.join(dir, 'short.jsonl');
    const args = ['swaps', ...range, '--window', '5m', '--concurrency', '1', '-o', file];
    const saved = await interrupted(envIn(dir, slow), args, file, 2);
    expect(saved.bytes).toBeGreaterThan(0);
    // The partial file lost its tail (copied back from a backup, a disk that lost unsynced pages, an editor): truncate
    // then extends it back to the manifest's length with zeros.
    fs.truncateSync(`${file}.partial`, 10);
    const r = await runSwapx([...args, '--resume', '-q'], { env: envIn(dir, slow) });
    const written = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    expect(written).not.toContain('\u0000');
    if (r.code === 0) expect(written).toBe(reference);
    else expect([r.code, fs.existsSync(file)]).toEqual([2, false]);
  });
});
