// The faults the chaos run injects besides the sandbox's own (kill moments, full and read-only disks),
// and how the injected ones are named in the table.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** mulberry32: the kill moments of a chaos run are reproducible from its seed. */
function randomSource(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` moments in [minMs, maxMs), rounded to the millisecond, in draw order. */
export function randomMoments(seed: number, count: number, minMs: number, maxMs: number): number[] {
  const random = randomSource(seed);
  return Array.from({ length: count }, () => Math.round(minMs + random() * (maxMs - minMs)));
}

/**
 * Whether tmpfs mounts work here (root, and a kernel and container that allow them).
 * Returns undefined when they do, else the reason they do not.
 */
export function mountSupport(): string | undefined {
  if (process.platform !== 'linux') return `tmpfs mounts need Linux (this is ${process.platform})`;
  if (typeof process.getuid === 'function' && process.getuid() !== 0) return 'tmpfs mounts need root';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapx-chaos-mnt-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'pipe' });
    execFileSync('umount', [dir], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    const { stderr, message } = error as { stderr?: Buffer; message: string };
    const why = String(stderr ?? message)
      .trim()
      .split('\n')[0];
    return `cannot mount a tmpfs (${why})`;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function mountTmpfs(dir: string, options: string): void {
  execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdio: 'pipe' });
}

export function remount(dir: string, options: string): void {
  execFileSync('mount', ['-o', `remount,${options}`, dir], { stdio: 'pipe' });
}

export function unmount(dir: string): void {
  try {
    execFileSync('umount', [dir], { stdio: 'pipe' });
  } catch {
    // Busy (a process still has a file open): detach now, freed when closed.
    execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
  }
}

export function isMounted(dir: string): boolean {
  const real = fs.realpathSync(dir);
  return fs
    .readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .some((line) => line.split(' ')[4] === real);
}

/** KiB of tmpfs with room for `bytes` of output and its temporary copies. */
export const roomFor = (bytes: number): number => Math.max(16 * 1024, Math.ceil((bytes * 3) / 1024));

export type FaultCounts = Record<string, number>;

/** `429×3 reset×1`, or `none`. */
export function faultsText(counts: FaultCounts): string {
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${kind}×${n}`);
  return parts.length ? parts.join(' ') : 'none';
}

export function addFaults(total: FaultCounts, counts: FaultCounts): FaultCounts {
  for (const [kind, n] of Object.entries(counts)) total[kind] = (total[kind] ?? 0) + n;
  return total;
}
