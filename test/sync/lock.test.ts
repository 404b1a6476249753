/** The directory lock: exclusive while its holder lives, taken over when it is gone, released only by its holder. */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LOCK_FILE, STALE_MS, SyncLockedError, acquireLock } from '../../src/fs/lock.js';
import { tempDir } from '../helpers/cli.js';
import { deadPid } from '../helpers/sync.js';

const writeLock = (dir: string, info: object) => fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify(info));

describe('acquireLock', () => {
  it('creates the lock with pid, host and start, and removes it on release', async () => {
    const dir = tempDir('swapx-lock-');
    const lock = await acquireLock(dir);
    const info = JSON.parse(fs.readFileSync(lock.file, 'utf8')) as { pid: number; host: string; startedAt: string };
    expect(info.pid).toBe(process.pid);
    expect(info.host).toBe(os.hostname());
    expect(Date.parse(info.startedAt)).not.toBeNaN();
    await lock.release();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('refuses while a live process on this host holds it', async () => {
    const dir = tempDir('swapx-lock-');
    writeLock(dir, { pid: process.ppid, host: os.hostname(), startedAt: '2026-11-21T10:00:00.000Z' });
    const attempt = acquireLock(dir);
    await expect(attempt).rejects.toThrow(SyncLockedError);
    await expect(acquireLock(dir)).rejects.toThrow(`another swapx sync (pid ${process.ppid}, since 2026-11-21T10:00:00.000Z) is running on ${dir}`);
    expect(fs.readdirSync(dir)).toEqual([LOCK_FILE]);
  });

  it('refuses a fresh lock of another host (its process cannot be checked)', async () => {
    const dir = tempDir('swapx-lock-');
    writeLock(dir, { pid: deadPid(), host: 'elsewhere.example', startedAt: 'x' });
    await expect(acquireLock(dir)).rejects.toThrow(/pid \d+ on host elsewhere\.example/);
  });

  it('takes over a lock of another host that its holder stopped refreshing', async () => {
    const dir = tempDir('swapx-lock-');
    writeLock(dir, { pid: 4242, host: 'cronjob-28911-x7k2p', startedAt: 'x' });
    const old = new Date(Date.now() - STALE_MS - 60_000);
    fs.utimesSync(path.join(dir, LOCK_FILE), old, old);
    const reasons: string[] = [];
    const lock = await acquireLock(dir, { onTakeOver: (reason) => reasons.push(reason) });
    expect(reasons).toEqual(['a lock of pid 4242 on host cronjob-28911-x7k2p, not refreshed for 11 min']);
    expect(JSON.parse(fs.readFileSync(lock.file, 'utf8')).pid).toBe(process.pid);
    await lock.release();
  });

  it('takes over a lock whose process is gone, and says so', async () => {
    const dir = tempDir('swapx-lock-');
    const pid = deadPid();
    writeLock(dir, { pid, host: os.hostname(), startedAt: 'then' });
    const reasons: string[] = [];
    const lock = await acquireLock(dir, { onTakeOver: (reason) => reasons.push(reason) });
    expect(reasons).toEqual([`a lock left by pid ${pid} (since then), which is no longer running`]);
    expect(JSON.parse(fs.readFileSync(lock.file, 'utf8')).pid).toBe(process.pid);
    await lock.release();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('does not remove a lock that is no longer its own', async () => {
    const dir = tempDir('swapx-lock-');
    const lock = await acquireLock(dir);
    writeLock(dir, { pid: process.ppid, host: os.hostname(), startedAt: 'x' });
    await lock.release();
    expect(fs.readdirSync(dir)).toEqual([LOCK_FILE]);
  });
});
