/**
 * The state write fails after the partitions were rewritten (a full disk: here a tmpfs out of inodes, so the
 * partitions fit and the state's temporary file does not). The run exits 1 saying how far it synced: that must
 * be the cursor of the state on disk, which the next run continues from, not the one it failed to save.
 * Needs root and tmpfs mounts (as the chaos run's full-disk cases); skipped elsewhere.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { tempDir } from '../helpers/cli.js';
import { useClockedSandbox } from '../helpers/clocked-sandbox.js';
import { readState } from '../helpers/sync.js';
import { runSwapx } from '../helpers/run.js';

function canMount(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const dir = tempDir('swapx-mount-probe-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'pipe' });
    execFileSync('umount', [dir], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

const mounted: string[] = [];
afterAll(() => {
  for (const dir of mounted) execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
});

describe.skipIf(!canMount())('a state write that fails on a full disk', () => {
  const api = useClockedSandbox({ seed: 91, swapsPerHour: 60, clock: Date.parse('2026-11-11T06:00:00Z') });

  it('exits 1 naming the cursor on disk', async () => {
    const dir = tempDir('swapx-state-full-');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m,nr_inodes=1000', 'tmpfs', dir], { stdio: 'pipe' });
    mounted.push(dir);
    // The first run: one partition (2026-11-10).
    const first = await runSwapx(['sync', '--out', dir, '--since', '2026-11-10T20:00:00Z', '--until', '2026-11-10T23:00:00Z'], { env: api.env() });
    expect(first.code).toBe(0);
    const saved = readState(dir).cursor;
    expect(saved).toBe('2026-11-10T23:00:00Z');
    // Room for the lock, the new partition's folder and file: the state's temporary file is one inode too many.
    const { files, ffree } = fs.statfsSync(dir);
    execFileSync('mount', ['-o', `remount,nr_inodes=${files - ffree + 3}`, dir], { stdio: 'pipe' });
    const second = await runSwapx(['sync', '--out', dir, '--until', '2026-11-11T02:00:00Z'], { env: api.env() });
    expect(second.code).toBe(1);
    // The partitions were rewritten; the state was not.
    expect(fs.existsSync(`${dir}/date=2026-11-11/part.jsonl`)).toBe(true);
    expect(readState(dir).cursor).toBe(saved);
    // Now: "…: no space left on device; synced up to 2026-11-11T02:00:00Z; run the same command again to continue".
    expect(second.stderr).toBe(`swapx: error: writing ${dir}: no space left on device; synced up to ${saved}; run the same command again to continue\n`);
  });
});
