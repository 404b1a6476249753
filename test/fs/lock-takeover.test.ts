/**
 * The directory lock, past its everyday use: locks that cannot be read, of another pid namespace, of this
 * process's own pid; the names a caller gives; a take-over raced by another sync; a file system without hard
 * links; the heartbeat; and a lock checked, released, or released at once, only while it is its holder's.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { acquireLock, HEARTBEAT_MS, isAlive, LOCK_FILE, STALE_MS, SyncLockedError } from '../../src/fs/lock.js';
import { tempDir } from '../helpers/cli.js';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const dead = () => {
  try {
    return Number(fs.readFileSync('/proc/sys/kernel/pid_max', 'utf8')) + 1;
  } catch {
    return 2 ** 22 + 1;
  }
};
const lockIn = (dir: string) => path.join(dir, LOCK_FILE);
const writeLock = (dir: string, content: object | string, ageMs = 0) => {
  fs.writeFileSync(lockIn(dir), typeof content === 'string' ? content : JSON.stringify(content));
  if (ageMs > 0) {
    const then = new Date(Date.now() - ageMs);
    fs.utimesSync(lockIn(dir), then, then);
  }
};
const namespace = (() => {
  try {
    return fs.readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined;
  }
})();
const coded = (code: string) => Object.assign(new Error(code), { code });

async function takeOver(dir: string): Promise<string[]> {
  const reasons: string[] = [];
  const lock = await acquireLock(dir, { onTakeOver: (reason) => reasons.push(reason) });
  expect(JSON.parse(fs.readFileSync(lock.file, 'utf8')).pid).toBe(process.pid);
  await lock.release();
  return reasons;
}

describe('what the lock holds', () => {
  it('pid, host, start, pid namespace and a token of its own; no temporary file is left', async () => {
    const dir = tempDir('swapx-lock-');
    const lock = await acquireLock(dir);
    expect(lock.file).toBe(lockIn(dir));
    const text = fs.readFileSync(lock.file, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    const info = JSON.parse(text);
    expect(Object.keys(info)).toEqual(['pid', 'host', 'startedAt', ...(namespace ? ['pidNamespace'] : []), 'token']);
    expect(info.pidNamespace).toBe(namespace);
    expect(info.token).toMatch(/^[0-9a-f]{12}$/);
    expect(fs.statSync(lock.file).mode & 0o777).toBe(0o644);
    expect(fs.readdirSync(dir)).toEqual([LOCK_FILE]);
    await lock.release();
  });
});

describe('a lock that cannot be read', () => {
  it.each([
    ['not JSON', 'not json'],
    ['no pid', { host: os.hostname() }],
    ['a pid of text', { pid: '12', host: os.hostname() }],
    ['a pid of zero', { pid: 0, host: os.hostname() }],
    ['a fractional pid', { pid: 1.5, host: os.hostname() }],
    ['a pid past the safe integers', { pid: 2 ** 53, host: os.hostname() }],
    ['no host', { pid: process.ppid }],
    ['JSON null', 'null'],
  ])('(%s) is being written while young: refused', async (_name, content) => {
    const dir = tempDir('swapx-lock-');
    writeLock(dir, content);
    await expect(acquireLock(dir)).rejects.toThrow(new SyncLockedError(`another swapx sync is starting on ${dir} (${lockIn(dir)} is being written)`));
  });

  it.each([
    ['not JSON', 'not json'],
    ['a pid of zero', { pid: 0, host: os.hostname() }],
    ['no host', { pid: process.ppid }],
  ])('(%s) is taken over once 10 s old', async (_name, content) => {
    const dir = tempDir('swapx-lock-');
    writeLock(dir, content, 11_000);
    expect(await takeOver(dir)).toEqual(['an unreadable lock']);
  });

  it('a lock without a start says so with ?', async () => {
    const dir = tempDir('swapx-lock-');
    writeLock(dir, { pid: dead(), host: os.hostname() });
    expect(await takeOver(dir)).toEqual([`a lock left by pid ${dead()} (since ?), which is no longer running`]);
  });

  it('a lock that is a folder fails as the file system says', async () => {
    const dir = tempDir('swapx-lock-');
    fs.mkdirSync(lockIn(dir));
    await expect(acquireLock(dir)).rejects.toMatchObject({ code: 'EISDIR' });
  });
});

describe('a lock of another pid namespace on this host', () => {
  it.runIf(namespace)('is judged by its heartbeat, as one of another host: refused while fresh, taken over when stale', async () => {
    const dir = tempDir('swapx-lock-');
    // Its pid is alive here, but it is another namespace's: not ours to ask about.
    writeLock(dir, { pid: process.ppid, host: os.hostname(), startedAt: 'then', pidNamespace: 'pid:[1]' });
    await expect(acquireLock(dir)).rejects.toThrow(
      new SyncLockedError(`another swapx sync (pid ${process.ppid}, since then) is running on ${dir}; if it is not, delete ${lockIn(dir)}`),
    );
    writeLock(dir, { pid: process.ppid, host: os.hostname(), startedAt: 'then', pidNamespace: 'pid:[1]' }, STALE_MS + 3 * 60_000);
    expect(await takeOver(dir)).toEqual([`a lock of pid ${process.ppid} on host ${os.hostname()}, not refreshed for 13 min`]);
  });

  it('of this namespace, or of none said: the pid is asked about', async () => {
    const dir = tempDir('swapx-lock-');
    writeLock(dir, { pid: dead(), host: os.hostname(), startedAt: 'then', ...(namespace ? { pidNamespace: namespace } : {}) });
    expect(await takeOver(dir)).toEqual([`a lock left by pid ${dead()} (since then), which is no longer running`]);
    writeLock(dir, { pid: dead(), host: os.hostname(), startedAt: 'then', pidNamespace: 7 });
    expect(await takeOver(dir)).toEqual([`a lock left by pid ${dead()} (since then), which is no longer running`]);
  });

  it('of another host, exactly at the stale age: still refused', async () => {
    const dir = tempDir('swapx-lock-');
    writeLock(dir, { pid: 4242, host: 'elsewhere', startedAt: 'then' }, STALE_MS - 5_000);
    await expect(acquireLock(dir)).rejects.toThrow(
      new SyncLockedError(`another swapx sync (pid 4242 on host elsewhere, since then) is running on ${dir}; if it is not, delete ${lockIn(dir)}`),
    );
  });
});

describe("this process's own pid", () => {
  it('a lock this process holds is refused to a second taker in it', async () => {
    const dir = tempDir('swapx-lock-');
    const first = await acquireLock(dir);
    const startedAt = JSON.parse(fs.readFileSync(first.file, 'utf8')).startedAt;
    await expect(acquireLock(dir)).rejects.toThrow(
      new SyncLockedError(`another swapx sync (pid ${process.pid}, since ${startedAt}) is running on ${dir}; if it is not, delete ${lockIn(dir)}`),
    );
    await first.release();
  });

  it('a lock of its pid that it no longer holds (released, or a reused pid) is taken over', async () => {
    const dir = tempDir('swapx-lock-');
    const first = await acquireLock(dir);
    const text = fs.readFileSync(first.file, 'utf8');
    await first.release();
    fs.writeFileSync(lockIn(dir), text);
    expect(await takeOver(dir)).toEqual([`a lock of pid ${process.pid} (this process's pid, reused)`]);

    const second = await acquireLock(dir);
    const again = fs.readFileSync(second.file, 'utf8');
    second.releaseSync();
    fs.writeFileSync(lockIn(dir), again);
    expect(await takeOver(dir)).toEqual([`a lock of pid ${process.pid} (this process's pid, reused)`]);
  });
});

describe('names a caller gives', () => {
  it('the lock file, the work and what it guards name the messages', async () => {
    const dir = tempDir('swapx-lock-');
    fs.writeFileSync(path.join(dir, 'mirror.lock'), JSON.stringify({ pid: process.ppid, host: os.hostname(), startedAt: 'then' }));
    await expect(acquireLock(dir, { name: 'mirror.lock', what: 'mirror', where: 'the table t' })).rejects.toThrow(
      new SyncLockedError(
        `another swapx mirror (pid ${process.ppid}, since then) is running on the table t; if it is not, delete ${path.join(dir, 'mirror.lock')}`,
      ),
    );
    fs.rmSync(path.join(dir, 'mirror.lock'));
    const lock = await acquireLock(dir, { name: 'mirror.lock', what: 'mirror', where: 'the table t' });
    expect(lock.file).toBe(path.join(dir, 'mirror.lock'));
    fs.writeFileSync(lock.file, JSON.stringify({ pid: 9, host: 'h', startedAt: 'x' }));
    await expect(lock.check()).rejects.toThrow(
      new SyncLockedError(
        'the lock on the table t was taken over by pid 9 on h while this mirror ran; it stopped before writing more: run it again once that one ends',
      ),
    );
    fs.rmSync(lock.file);
    await expect(lock.check()).rejects.toThrow(
      new SyncLockedError('the lock on the table t was taken over while this mirror ran; it stopped before writing more: run it again once that one ends'),
    );
    await lock.release();
  });
});

describe('a take-over raced by another sync', () => {
  it('the lock gone before it was moved aside: taken at the next attempt, nothing said', async () => {
    const dir = tempDir('swapx-lock-');
    writeLock(dir, { pid: dead(), host: os.hostname(), startedAt: 'then' });
    const rename = fsp.rename;
    vi.spyOn(fsp, 'rename').mockImplementationOnce(async (from, to) => {
      fs.rmSync(String(from));
      return rename(from, to);
    });
    expect(await takeOver(dir)).toEqual([]);
  });

  it('a rename that fails otherwise is thrown; no temporary file is left', async () => {
    const dir = tempDir('swapx-lock-');
    writeLock(dir, { pid: dead(), host: os.hostname(), startedAt: 'then' });
    vi.spyOn(fsp, 'rename').mockRejectedValueOnce(coded('EIO'));
    await expect(acquireLock(dir)).rejects.toMatchObject({ code: 'EIO' });
    expect(fs.readdirSync(dir)).toEqual([LOCK_FILE]);
  });

  it('what was moved aside is not what was judged stale: put back, and judged again', async () => {
    const dir = tempDir('swapx-lock-');
    writeLock(dir, { pid: dead(), host: os.hostname(), startedAt: 'then' });
    const live = JSON.stringify({ pid: process.ppid, host: os.hostname(), startedAt: 'now' });
    const rename = fsp.rename;
    vi.spyOn(fsp, 'rename').mockImplementationOnce(async (from, to) => {
      // Another sync took the stale lock over and wrote its own in between.
      fs.writeFileSync(String(from), live);
      return rename(from, to);
    });
    await expect(acquireLock(dir)).rejects.toThrow(`another swapx sync (pid ${process.ppid}, since now) is running on ${dir}`);
    expect(fs.readdirSync(dir)).toEqual([LOCK_FILE]);
    expect(fs.readFileSync(lockIn(dir), 'utf8')).toBe(live);
  });

  it('a lock that keeps vanishing: given up after five attempts', async () => {
    const dir = tempDir('swapx-lock-');
    writeLock(dir, { pid: process.ppid, host: os.hostname(), startedAt: 'then' });
    const readFile = fsp.readFile;
    const reads = vi
      .spyOn(fsp, 'readFile')
      .mockImplementation(((file: string, ...rest: unknown[]) =>
        file === lockIn(dir) ? Promise.reject(coded('ENOENT')) : (readFile as (...a: unknown[]) => Promise<string>)(file, ...rest)) as typeof fsp.readFile);
    await expect(acquireLock(dir)).rejects.toThrow(new SyncLockedError(`could not take the lock ${lockIn(dir)}: other syncs keep taking it`));
    expect(reads.mock.calls.filter(([file]) => file === lockIn(dir))).toHaveLength(5);
    expect(fs.readdirSync(dir)).toEqual([LOCK_FILE]);
  });
});

describe('a file system without hard links', () => {
  it.each(['EPERM', 'ENOTSUP', 'ENOSYS', 'EOPNOTSUPP'])('(%s): an exclusive create instead', async (code) => {
    const dir = tempDir('swapx-lock-');
    vi.spyOn(fsp, 'link').mockRejectedValue(coded(code));
    const lock = await acquireLock(dir);
    expect(JSON.parse(fs.readFileSync(lock.file, 'utf8')).pid).toBe(process.pid);
    expect(fs.readdirSync(dir)).toEqual([LOCK_FILE]);
    // A second taker's exclusive create fails as a hard link would: refused.
    await expect(acquireLock(dir)).rejects.toThrow(SyncLockedError);
    await lock.release();
  });

  it('another failure of the link is thrown', async () => {
    const dir = tempDir('swapx-lock-');
    vi.spyOn(fsp, 'link').mockRejectedValue(coded('EIO'));
    await expect(acquireLock(dir)).rejects.toMatchObject({ code: 'EIO' });
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('the heartbeat', () => {
  it('touches the lock every HEARTBEAT_MS while it is ours, and not once it is another', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const dir = tempDir('swapx-lock-');
    const lock = await acquireLock(dir);
    const old = new Date(Math.floor(Date.now() / 1000) * 1000 - 3_600_000);
    fs.utimesSync(lock.file, old, old);
    const mtime = () => fs.statSync(lock.file).mtimeMs;
    vi.advanceTimersByTime(HEARTBEAT_MS - 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(mtime()).toBe(old.getTime());
    vi.advanceTimersByTime(1);
    await vi.waitFor(() => expect(mtime()).toBeGreaterThan(Date.now() - 60_000));

    fs.writeFileSync(lock.file, JSON.stringify({ pid: 9, host: 'h', startedAt: 'x' }));
    fs.utimesSync(lock.file, old, old);
    vi.advanceTimersByTime(HEARTBEAT_MS);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(mtime()).toBe(old.getTime());
    await lock.release();
    expect(fs.readdirSync(dir)).toEqual([LOCK_FILE]);
  });

  it('stops at release, and at releaseSync', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    for (const release of ['release', 'releaseSync'] as const) {
      const dir = tempDir('swapx-lock-');
      const lock = await acquireLock(dir);
      const text = fs.readFileSync(lock.file, 'utf8');
      await lock[release]();
      expect(fs.readdirSync(dir)).toEqual([]);
      // Put back by hand: a heartbeat still running would touch it.
      fs.writeFileSync(lock.file, text);
      const old = new Date(Math.floor(Date.now() / 1000) * 1000 - 3_600_000);
      fs.utimesSync(lock.file, old, old);
      vi.advanceTimersByTime(HEARTBEAT_MS * 2);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(fs.statSync(lock.file).mtimeMs).toBe(old.getTime());
    }
  });
});

describe('releaseSync', () => {
  it('removes the lock while ours, leaves another, and is quiet when it is gone', async () => {
    const dir = tempDir('swapx-lock-');
    const lock = await acquireLock(dir);
    lock.releaseSync();
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(() => lock.releaseSync()).not.toThrow();

    const other = await acquireLock(dir);
    fs.writeFileSync(other.file, 'someone else');
    other.releaseSync();
    expect(fs.readFileSync(other.file, 'utf8')).toBe('someone else');
  });
});

describe('isAlive', () => {
  it('this process is; a pid past the largest is not', () => {
    expect(isAlive(process.pid)).toBe(true);
    expect(isAlive(dead())).toBe(false);
  });

  it('a process of another user (EPERM) is', () => {
    vi.spyOn(process, 'kill').mockImplementation(() => {
      throw coded('EPERM');
    });
    expect(isAlive(12345)).toBe(true);
  });
});

describe('the lock file mode', () => {
  it.each([
    ['a hard link', undefined],
    ['an exclusive create', 'EPERM'],
  ])('is 0644 whatever the umask, made by %s', async (_name, linkError) => {
    if (linkError) vi.spyOn(fsp, 'link').mockRejectedValue(coded(linkError));
    const dir = tempDir('swapx-lock-');
    const umask = process.umask(0);
    try {
      const lock = await acquireLock(dir);
      expect(fs.statSync(lock.file).mode & 0o777).toBe(0o644);
      await lock.release();
    } finally {
      process.umask(umask);
    }
  });
});

describe('the heartbeat timer', () => {
  it('does not keep the process alive', async () => {
    const setInterval = vi.spyOn(globalThis, 'setInterval');
    const lock = await acquireLock(tempDir('swapx-lock-'));
    const timer = setInterval.mock.results.at(-1)?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    await lock.release();
  });
});

describe('small things', () => {
  it('a stale lock is taken over without a listener to tell', async () => {
    const dir = tempDir('swapx-lock-');
    writeLock(dir, { pid: dead(), host: os.hostname(), startedAt: 'then' });
    const lock = await acquireLock(dir);
    expect(JSON.parse(fs.readFileSync(lock.file, 'utf8')).pid).toBe(process.pid);
    await lock.release();
  });

  it('the refusal is named SyncLockedError', async () => {
    const dir = tempDir('swapx-lock-');
    writeLock(dir, { pid: process.ppid, host: os.hostname(), startedAt: 'then' });
    await expect(acquireLock(dir)).rejects.toMatchObject({ name: 'SyncLockedError' });
  });
});
