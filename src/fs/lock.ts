/**
 * One sync per directory: `<dir>/.swapx-sync.lock` holds {pid, host,
 * startedAt}. It is created whole (written to a temporary file, then
 * hard-linked into place, which fails if a lock exists), so a reader never
 * sees a half-written lock. Its holder touches it every HEARTBEAT_MS. A lock
 * whose process is gone on this host is stale and taken over; so is one of
 * another host (a container's hostname changes every run) not touched for
 * STALE_MS. Otherwise the second sync is refused (exit 1).
 */
import { randomBytes } from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SwapxError } from '../api/errors.js';

export const LOCK_FILE = '.swapx-sync.lock';
export const HEARTBEAT_MS = 30_000;
/** Twenty missed heartbeats: no living holder is that late. */
export const STALE_MS = 10 * 60_000;

export interface LockInfo {
  pid: number;
  host: string;
  startedAt: string;
  /** the holder's pid namespace (Linux): a pid means something only inside it */
  pidNamespace?: string;
}

/**
 * This process's pid namespace, or undefined where there is none to read. Two containers of one hostname sharing a
 * volume are two namespaces: a pid alive in one is not seen in the other.
 */
export function pidNamespace(): string | undefined {
  try {
    return fsSync.readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined;
  }
}

/** Another sync holds the directory (exit 1: the work could not be done now). */
export class SyncLockedError extends SwapxError {
  override name = 'SyncLockedError';
}

export interface HeldLock {
  file: string;
  /**
   * Throws SyncLockedError when the lock is no longer this sync's (another host took it over, say after a stall
   * past STALE_MS on a shared directory): checked before each write, so two syncs never write one directory.
   */
  check(): Promise<void>;
  release(): Promise<void>;
  /** `release` for a process about to exit (a second Ctrl-C): at once, synchronously */
  releaseSync(): void;
}

/**
 * Whether the holder of a lock (a lock file, a lake's lease) is a process of this host and pid namespace that no
 * longer runs: its lock can be taken over at once. Of another host or namespace, its pid tells nothing here.
 */
export function holderGone(holder: Holder): boolean {
  return ofThisHost(holder) && holder.pid !== process.pid && !isAlive(holder.pid);
}

interface Holder {
  pid: number;
  host: string;
  pidNamespace?: string;
}

/** Whether the holder's pid can be asked about here: of this host and of this pid namespace. */
function ofThisHost(holder: Holder): boolean {
  const namespace = pidNamespace();
  return holder.host === os.hostname() && (holder.pidNamespace === undefined || namespace === undefined || holder.pidNamespace === namespace);
}

/** Whether a process with this pid runs on this host: one that exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, under another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !isZombie(pid);
}

/**
 * Whether the process has ended but is not yet reaped: killed, it still has its pid until its parent waits for it,
 * and PID 1 of many containers waits for nobody. Read from Linux's /proc (elsewhere: false, as before).
 */
export function isZombie(pid: number): boolean {
  let stat: string;
  try {
    stat = fsSync.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  // "pid (comm) S …": the state follows the command's name, which may itself hold ") ".
  const state = stat.charAt(stat.lastIndexOf(')') + 2);
  return state === 'Z' || state === 'X';
}

function parseLock(text: string): LockInfo | undefined {
  try {
    const info = JSON.parse(text) as Partial<LockInfo>;
    if (typeof info.pid === 'number' && Number.isSafeInteger(info.pid) && info.pid > 0 && typeof info.host === 'string') {
      const pidNamespace = typeof info.pidNamespace === 'string' ? info.pidNamespace : undefined;
      return { pid: info.pid, host: info.host, startedAt: String(info.startedAt ?? '?'), ...(pidNamespace ? { pidNamespace } : {}) };
    }
  } catch {
    // unreadable: treated as stale below
  }
  return undefined;
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function ageMs(file: string): Promise<number> {
  const stat = await fs.stat(file).catch(() => undefined);
  return stat ? Date.now() - stat.mtimeMs : Number.POSITIVE_INFINITY;
}

/** The locks this process holds (their text): a lock of our own pid is one of them, or a reused pid's. */
const heldHere = new Set<string>();

/** Why a held lock is stale, or undefined while its holder may be running. */
function staleReason(info: LockInfo | undefined, age: number, text: string): string | undefined {
  if (!info) return 'an unreadable lock';
  // Another host, or another pid namespace of this one: the pid cannot be asked about, only the heartbeat.
  if (!ofThisHost(info)) {
    return age > STALE_MS ? `a lock of pid ${info.pid} on host ${info.host}, not refreshed for ${Math.round(age / 60_000)} min` : undefined;
  }
  // Our own pid: a lock this process holds (a library caller running two at once), or a container restarted with
  // the same pid.
  if (info.pid === process.pid) return heldHere.has(text) ? undefined : `a lock of pid ${info.pid} (this process's pid, reused)`;
  return isAlive(info.pid) ? undefined : `a lock left by pid ${info.pid} (since ${info.startedAt}), which is no longer running`;
}

/**
 * Takes the lock `name` (default: a sync directory's) in `dir`. `what`: the work it guards, as messages name it;
 * `where`: what it guards (default `dir`).
 */
export async function acquireLock(
  dir: string,
  options: { onTakeOver?: (reason: string) => void; name?: string; what?: string; where?: string } = {},
): Promise<HeldLock> {
  const name = options.name ?? LOCK_FILE;
  const what = options.what ?? 'sync';
  const where = options.where ?? dir;
  const file = path.join(dir, name);
  const namespace = pidNamespace();
  // A token of its own: two locks this process takes in one millisecond are still told apart.
  const mine = {
    pid: process.pid,
    host: os.hostname(),
    startedAt: new Date().toISOString(),
    ...(namespace ? { pidNamespace: namespace } : {}),
    token: randomBytes(6).toString('hex'),
  };
  const text = `${JSON.stringify(mine)}\n`;
  const temp = path.join(dir, `${name}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  await fs.writeFile(temp, text, { mode: 0o644, flag: 'wx' });
  try {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      try {
        await createWhole(temp, file, text);
        return holdLock(file, text, what, where);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const held = await readText(file);
      if (held === undefined) continue;
      const info = parseLock(held);
      if (!info && (await ageMs(file)) < 10_000) throw new SyncLockedError(`another swapx ${what} is starting on ${where} (${file} is being written)`);
      const reason = staleReason(info, await ageMs(file), held);
      if (reason === undefined) {
        const host = info!.host === os.hostname() ? '' : ` on host ${info!.host}`;
        throw new SyncLockedError(
          `another swapx ${what} (pid ${info!.pid}${host}, since ${info!.startedAt}) is running on ${where}; if it is not, delete ${file}`,
        );
      }
      // Take over by moving the stale lock aside; if what moved is not what we judged stale, another sync won the race: put it back.
      const aside = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.stale`;
      try {
        await fs.rename(file, aside);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      const moved = await readText(aside);
      if (moved !== held) {
        await fs.link(aside, file).catch(() => {});
        await fs.rm(aside, { force: true });
        continue;
      }
      await fs.rm(aside, { force: true });
      options.onTakeOver?.(reason);
    }
    throw new SyncLockedError(`could not take the lock ${file}: other syncs keep taking it`);
  } finally {
    await fs.rm(temp, { force: true });
  }
}

/** Creates `file` with `text`, failing with EEXIST if it exists. */
async function createWhole(temp: string, file: string, text: string): Promise<void> {
  try {
    await fs.link(temp, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A file system without hard links: an exclusive create (a reader may briefly see it empty).
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EOPNOTSUPP') throw error;
    await fs.writeFile(file, text, { mode: 0o644, flag: 'wx' });
  }
}

/** Keeps the lock fresh while it is held, so another host can tell a live holder from a dead one. */
function holdLock(file: string, text: string, what: string, where: string): HeldLock {
  heldHere.add(text);
  const current = () => readText(file).catch(() => undefined);
  const heartbeat = setInterval(() => {
    const now = new Date();
    // Only while it is ours: touching a lock taken over would keep it looking alive for its new holder's sake.
    void current()
      .then((held) => (held === text ? fs.utimes(file, now, now) : undefined))
      .catch(() => {});
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return {
    file,
    check: async () => {
      const held = await current();
      if (held === text) return;
      const holder = parseLock(held ?? '');
      const by = holder ? ` by pid ${holder.pid} on ${holder.host}` : '';
      throw new SyncLockedError(
        `the lock on ${where} was taken over${by} while this ${what} ran; it stopped before writing more: run it again once that one ends`,
      );
    },
    release: async () => {
      clearInterval(heartbeat);
      heldHere.delete(text);
      // Removed only if still ours.
      if ((await current()) === text) await fs.rm(file, { force: true });
    },
    releaseSync: () => {
      clearInterval(heartbeat);
      heldHere.delete(text);
      try {
        if (fsSync.readFileSync(file, 'utf8') === text) fsSync.rmSync(file, { force: true });
      } catch {
        // gone already, or unreadable: not ours to remove
      }
    },
  };
}
