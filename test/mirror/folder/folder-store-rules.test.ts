/**
 * The folder store's own rules, past the MirrorStore contract: which query a run keeps (flags, else the saved
 * state, else the defaults of the format), what opening repairs and says, the lock's failures in the words of
 * the dir, a row whose completedAt cannot be read, and what a discarded first run removes.
 */
import fs from 'node:fs';
import { inUsersTerms } from '../../../src/commands/sync/errors.js';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError, WrappedError } from '../../../src/api/errors.js';
import { LIST_SWAP_FIELDS, SWAP_FIELDS, type Swap } from '../../../src/api/types.js';
import { fsReason } from '../../../src/cli/exit-codes.js';
import { LOCK_FILE, SyncLockedError } from '../../../src/fs/lock.js';
import { FolderStore, type FolderOptions } from '../../../src/mirror/folder/store.js';
import { serializeState, type SyncQuery } from '../../../src/mirror/partitions/state-file.js';

const STATE_FILE = '.swapx-sync.json';
import { newState } from '../../../src/sync/store.js';
import { tempDir } from '../../helpers/cli.js';
import { ONE_SWAP } from '../../helpers/one-swap.js';
import { readState } from '../../helpers/sync.js';

const NOW = Date.parse('2026-11-02T00:00:00Z');
const T = Date.parse('2026-11-01T00:00:00Z');
const BASE = 'https://api.example.test';

const store = (dir: string, extra: Partial<FolderOptions> = {}) => new FolderStore({ dir, now: () => NOW, fsReason, ...extra });
const swap = (id: string, completedAt: string, updatedAt = completedAt) => ({ ...ONE_SWAP, id, completedAt, updatedAt }) as unknown as Swap;
const newDir = () => path.join(tempDir('swapx-folder-'), 'out');

/** A mirror of `query` at its start, written as a run would. */
async function mirror(dir: string, extra: Partial<FolderOptions> = {}): Promise<SyncQuery> {
  const s = store(dir, extra);
  await s.open(() => {});
  const query = s.resolveQuery(BASE, undefined);
  await s.commit(newState(query, T), T);
  await s.close(false);
  return query;
}

/** What `run` throws, as the user reads it: the shell words the engine's refusals in its flags. */
function said<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw inUsersTerms(error);
  }
}

describe('resolveQuery', () => {
  it.each([
    ['jsonl', SWAP_FIELDS],
    ['csv', LIST_SWAP_FIELDS],
    ['parquet', LIST_SWAP_FIELDS],
  ] as const)('a new %s mirror: the defaults of its format', (format, fields) => {
    expect(store('x', { format }).resolveQuery(BASE, undefined)).toEqual({ baseUrl: BASE, filter: 'Completed', format, fields: [...fields], gzip: false });
  });

  it('no flags: jsonl, every field, no gzip', () => {
    expect(store('x').resolveQuery(BASE, undefined)).toEqual({ baseUrl: BASE, filter: 'Completed', format: 'jsonl', fields: [...SWAP_FIELDS], gzip: false });
  });

  it('flags left out come from the saved query; the base URL is the one given', () => {
    const saved: SyncQuery = {
      baseUrl: 'https://old.example.test',
      filter: 'Completed',
      format: 'csv',
      fields: ['id', 'completedAt', 'updatedAt'],
      gzip: true,
    };
    expect(store('x').resolveQuery(BASE, saved)).toEqual({ ...saved, baseUrl: BASE });
    // The same settings given again are no difference.
    expect(store('x', { format: 'csv', gzip: true, fields: ['id', 'completedAt', 'updatedAt'] }).resolveQuery(BASE, saved)).toEqual({
      ...saved,
      baseUrl: BASE,
    });
  });

  it('a setting that differs from the saved query is refused, naming it', () => {
    const saved: SyncQuery = { baseUrl: BASE, filter: 'Completed', format: 'jsonl', fields: [...SWAP_FIELDS], gzip: false };
    expect(() => said(() => store('the-dir', { gzip: true }).resolveQuery(BASE, saved))).toThrow(
      new UsageError('the-dir holds a sync of another query (gzip was false, now true); sync this one into a new --out dir'),
    );
    expect(() => said(() => store('the-dir', { format: 'csv' }).resolveQuery('https://elsewhere.test', saved))).toThrow(
      new UsageError('the-dir holds a sync of another query (format was "jsonl", now "csv"); sync this one into a new --out dir'),
    );
  });
});

describe('open', () => {
  it('a new mirror: no state, the folder made, temporary files of a dead run removed', async () => {
    const dir = newDir();
    fs.mkdirSync(path.join(dir, 'date=2026-11-01'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'date=2026-11-01', '.part.jsonl.1-ab.tmp'), 'half');
    const s = store(dir);
    expect(await s.open(() => {})).toBeUndefined();
    expect(fs.readdirSync(path.join(dir, 'date=2026-11-01'))).toEqual([]);
    expect(fs.readdirSync(dir).sort()).toEqual([LOCK_FILE, 'date=2026-11-01']);
    await s.close(false);
  });

  it('a mirror written by an older swapx: said, and its state rewritten without the mark', async () => {
    const dir = newDir();
    fs.mkdirSync(dir, { recursive: true });
    const query: SyncQuery = { baseUrl: BASE, filter: 'Completed', format: 'jsonl', fields: [...SWAP_FIELDS], gzip: false };
    const text = serializeState(newState(query, T), T).replace('"version": 2', '"version": 1');
    fs.writeFileSync(path.join(dir, STATE_FILE), text);
    const notes: string[] = [];
    const s = store(dir);
    const saved = await s.open((message) => notes.push(message));
    expect(notes).toEqual([
      `${dir} was written by an older swapx: its parts are folded into one file per partition, and updates since 2026-11-01T00:00:00Z are fetched once (Filter=Updated) to bring every swap to its latest version`,
    ]);
    expect(saved).toEqual({ ...newState(query, T) });
    expect(readState(dir).version).toBe(2);
    expect(readState(dir).updatedAt).toBe('2026-11-02T00:00:00Z');
    await s.close(false);
  });

  it('partitions an interrupted run left in two files: folded, said, and the state rewritten', async () => {
    const dir = newDir();
    await mirror(dir);
    const before = fs.readFileSync(path.join(dir, STATE_FILE), 'utf8');
    for (const date of ['2026-11-01', '2026-11-03']) {
      fs.mkdirSync(path.join(dir, `date=${date}`));
      fs.writeFileSync(path.join(dir, `date=${date}`, 'part-0001.jsonl'), `${JSON.stringify(swap(`a-${date}`, `${date}T00:02:00Z`))}\n`);
    }
    const notes: string[] = [];
    const later = store(dir, { now: () => NOW + 60_000 });
    await later.open((message) => notes.push(message));
    expect(notes).toEqual(['folded 2 partition(s) an interrupted run left in two files (date=2026-11-01/part.jsonl, date=2026-11-03/part.jsonl)']);
    expect(fs.readFileSync(path.join(dir, STATE_FILE), 'utf8')).not.toBe(before);
    expect(readState(dir).updatedAt).toBe('2026-11-02T00:01:00Z');
    await later.close(false);
  });

  it('nothing to repair: nothing said, the state left as it was', async () => {
    const dir = newDir();
    await mirror(dir);
    const before = fs.readFileSync(path.join(dir, STATE_FILE), 'utf8');
    const notes: string[] = [];
    const later = store(dir, { now: () => NOW + 60_000 });
    await later.open((message) => notes.push(message));
    expect(notes).toEqual([]);
    expect(fs.readFileSync(path.join(dir, STATE_FILE), 'utf8')).toBe(before);
    await later.close(false);
  });

  it('the saved format decides the codec, not the defaults: a csv mirror opened without flags commits csv', async () => {
    const dir = newDir();
    const query = await mirror(dir, { format: 'csv' });
    const s = store(dir);
    const saved = await s.open(() => {});
    await s.add({ swap: swap('c1', '2026-11-01T00:02:00Z'), completedMs: Date.parse('2026-11-01T00:02:00Z') });
    expect(await s.commit({ ...saved!, query }, T)).toEqual({ newSwaps: 1, lateSwaps: 0, updatedSwaps: 0, touched: ['date=2026-11-01/part.csv'] });
    await s.close(false);
  });

  it('a lock the file system refuses is said in the words of the dir; a lock held by another sync is not reworded', async () => {
    const parent = tempDir('swapx-folder-');
    fs.writeFileSync(path.join(parent, 'file'), 'x');
    const dir = path.join(parent, 'file', 'out');
    const error = await store(dir)
      .open(() => {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WrappedError);
    expect((error as Error).message).toBe(`cannot take the lock in ${dir}: not a directory`);
    expect((error as Error & { cause: { code: string } }).cause.code).toBe('ENOTDIR');

    const held = newDir();
    fs.mkdirSync(held, { recursive: true });
    fs.writeFileSync(path.join(held, LOCK_FILE), JSON.stringify({ pid: process.ppid, host: os.hostname(), startedAt: 'then' }));
    await expect(store(held).open(() => {})).rejects.toThrow(
      new SyncLockedError(`another swapx sync (pid ${process.ppid}, since then) is running on ${held}; if it is not, delete ${path.join(held, LOCK_FILE)}`),
    );
  });

  it('a stale lock taken over is said', async () => {
    const dir = newDir();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, LOCK_FILE), 'not json');
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(dir, LOCK_FILE), old, old);
    const notes: string[] = [];
    const s = store(dir);
    await s.open((message) => notes.push(message));
    expect(notes).toEqual([`took over an unreadable lock on ${dir}`]);
    await s.close(false);
  });
});

describe('rows and commits', () => {
  it('a row whose completedAt the codec cannot read goes by the engine completedMs', async () => {
    const dir = newDir();
    const s = store(dir);
    await s.open(() => {});
    const query = s.resolveQuery(BASE, undefined);
    const at = Date.parse('2026-11-01T00:01:00Z');
    await s.add({ swap: swap('z-odd', 'yesterday-ish'), completedMs: at });
    await s.add({ swap: swap('a-late', '2026-11-01T00:05:00Z'), completedMs: Date.parse('2026-11-01T00:05:00Z') });
    expect(s.buffered).toBe(2);
    await s.commit(newState(query, T), T);
    expect(s.buffered).toBe(0);
    const ids = fs
      .readFileSync(path.join(dir, 'date=2026-11-01', 'part.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    // In completedAt order: the row read from the engine's 00:01 comes before 00:05.
    expect(ids).toEqual(['z-odd', 'a-late']);
    await s.close(false);
  });

  it('no store opened: nothing buffered', () => {
    expect(store('x').buffered).toBe(0);
  });

  it('a commit after the lock was taken over writes nothing and says so', async () => {
    const dir = newDir();
    const s = store(dir);
    await s.open(() => {});
    const query = s.resolveQuery(BASE, undefined);
    await s.add({ swap: swap('a1', '2026-11-01T00:02:00Z'), completedMs: Date.parse('2026-11-01T00:02:00Z') });
    fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: 7, host: 'other.example', startedAt: 'x' }));
    await expect(s.commit(newState(query, T), T)).rejects.toThrow(SyncLockedError);
    expect(fs.readdirSync(dir)).toEqual([LOCK_FILE]);
    await expect(s.checkLock()).rejects.toThrow(/was taken over by pid 7 on other\.example/);
    await s.close(true);
    // Not ours: left where it is.
    expect(fs.readdirSync(dir)).toEqual([LOCK_FILE]);
  });
});

describe('close', () => {
  it('discard: the state and every folder this run made are removed, up to the first it made', async () => {
    const parent = tempDir('swapx-folder-');
    const dir = path.join(parent, 'a', 'b', 'out');
    const s = store(dir);
    await s.open(() => {});
    await s.commit(newState(s.resolveQuery(BASE, undefined), T), T);
    await s.close(true);
    expect(fs.readdirSync(parent)).toEqual([]);
  });

  it('discard of a folder that existed: the state and the lock go, the folder stays', async () => {
    const dir = newDir();
    fs.mkdirSync(dir, { recursive: true });
    const s = store(dir);
    await s.open(() => {});
    await s.commit(newState(s.resolveQuery(BASE, undefined), T), T);
    await s.close(true);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('discard keeps folders that hold something else', async () => {
    const parent = tempDir('swapx-folder-');
    const dir = path.join(parent, 'a', 'out');
    const s = store(dir);
    await s.open(() => {});
    fs.writeFileSync(path.join(parent, 'a', 'keep'), 'x');
    await s.close(true);
    expect(fs.readdirSync(parent)).toEqual(['a']);
    expect(fs.readdirSync(path.join(parent, 'a'))).toEqual(['keep']);
  });

  it('no discard: the state stays', async () => {
    const dir = newDir();
    const s = store(dir);
    await s.open(() => {});
    await s.commit(newState(s.resolveQuery(BASE, undefined), T), T);
    await s.close(false);
    expect(fs.readdirSync(dir)).toEqual([STATE_FILE]);
  });

  it('closeNow releases the lock at once; close after it does nothing', async () => {
    const dir = newDir();
    const s = store(dir);
    await s.open(() => {});
    await s.commit(newState(s.resolveQuery(BASE, undefined), T), T);
    s.closeNow();
    expect(fs.readdirSync(dir)).toEqual([STATE_FILE]);
    await s.close(true);
    expect(fs.readdirSync(dir)).toEqual([STATE_FILE]);
  });

  it('a store never opened closes without a word', async () => {
    await expect(store(newDir()).close(true)).resolves.toBeUndefined();
  });
});
