/**
 * A partition file that cannot be what swapx wrote (cut short by a disk fault, edited by hand): the run must
 * fail loudly (exit 1) with one line naming the file, and leave it as it is, never rewrite it with rows lost.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../helpers/cli.js';
import { useClockedSandbox } from '../helpers/clocked-sandbox.js';
import { runSwapx } from '../helpers/run.js';

import { expectEqual } from '../helpers/equal.js';

const H = 3_600_000;
const NOW = Date.parse('2026-11-10T06:00:00Z');
const range = ['--since', '2026-11-10T00:00:00Z', '--until', '2026-11-10T03:00:00Z'];

describe('a corrupt partition file', () => {
  const api = useClockedSandbox({ seed: 71, swapsPerHour: 120, clock: NOW });

  /** Syncs a range, then cuts its partition file: text a few bytes into its middle record, binary in half. */
  async function cutMirror(flags: string[], ext: string): Promise<{ dir: string; file: string; cut: Buffer }> {
    api.clock = NOW;
    const dir = path.join(tempDir('swapx-corrupt-'), 'out');
    expect((await runSwapx(['sync', '--out', dir, ...range, ...flags], { env: api.env() })).code).toBe(0);
    const file = path.join(dir, `date=2026-11-10/part.${ext}`);
    const bytes = fs.readFileSync(file);
    const text = bytes.toString('utf8');
    const cut = /gz|parquet/.test(ext) ? bytes.subarray(0, bytes.length >> 1) : Buffer.from(text.slice(0, text.indexOf('\n', text.length / 2) + 20));
    fs.writeFileSync(file, cut);
    return { dir, file, cut };
  }

  // Now, in turn: "swapx: error: Unterminated string in JSON at position 19", "unexpected end of file",
  // "parquet file invalid (footer != PAR1)": which of the partitions, and what to do?
  it.each([
    ['JSON Lines', [], 'jsonl'],
    ['gzipped JSON Lines', ['--gzip'], 'jsonl.gz'],
    ['Parquet', ['--format', 'parquet'], 'parquet'],
  ])('%s: exit 1, and the one-line error names the file', async (_name, flags, ext) => {
    const { dir, file, cut } = await cutMirror(flags, ext);
    api.clock = NOW + 6 * H;
    const r = await runSwapx(['sync', '--out', dir], { env: api.env() });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(file);
    expectEqual(fs.readFileSync(file), cut);
  });

  it('CSV: a record cut short is refused (exit 1, naming the file), not read as a row and the rest dropped', async () => {
    const { dir, file, cut } = await cutMirror(['--format', 'csv'], 'csv');
    // No re-scan: the partition is read only to merge the updates of the 6 hours since.
    api.clock = NOW + 6 * H;
    const r = await runSwapx(['sync', '--out', dir, '--lag', '0', '--summary-json'], { env: api.env() });
    // Now: exit 0, and the partition is rewritten holding the cut record as a row (its id cut short, no other
    // cell, sorted last) while the ~200 rows after the cut are gone for good (no re-scan brings them back).
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(file);
    expectEqual(fs.readFileSync(file), cut);
  });
});
