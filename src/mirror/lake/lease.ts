/**
 * The one-writer lock of a lake: a lease object, `_swapx/sync.lock`, holding its writer's token and when the lease
 * ends (by the object store's clock, its Date header, which every writer reads alike). It is created only where none
 * is (If-None-Match: *), renewed by its holder every RENEW_MS (If-Match its ETag), taken over only once it has ended, or
 * at once where its holder was a process of this host that no longer runs (If-Match the ETag read: of two takers,
 * one wins), and given back by writing it ended (If-Match: a lease
 * taken over meanwhile is left alone). Its holder stops before any write once it cannot be sure it still holds it:
 * a renewal refused, or SAFETY_MS short of the end it last renewed to (by its own monotonic clock), so that its
 * last write ends before another can take over. The state is written conditionally as well (partitions/store.ts),
 * so that a writer that lost its lease cannot commit over the one that took it.
 */
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { holderGone, pidNamespace, SyncLockedError } from '../../fs/lock.js';
import type { WriterLock } from '../partitions/storage.js';
import type { S3Client } from './s3/client.js';
import { PreconditionFailedError } from './s3/errors.js';

/** How long a lease runs unless renewed. */
export const LEASE_MS = 60_000;
/** Its holder renews it this often: two renewals may fail before it ends. */
export const RENEW_MS = 20_000;
/** Its holder stops writing this long before the end it last renewed to: a write under way ends before a take-over. */
export const SAFETY_MS = 15_000;

export interface LeaseTimes {
  leaseMs: number;
  renewMs: number;
  safetyMs: number;
}

interface Lease {
  token: string;
  host: string;
  pid: number;
  pidNamespace?: string;
  since: string;
  /** epoch ms by the object store's clock; 0: given back */
  endsAt: number;
}

function parse(body: Buffer): Lease | undefined {
  try {
    const lease = JSON.parse(body.toString('utf8')) as Partial<Lease>;
    if (typeof lease.token === 'string' && typeof lease.endsAt === 'number') return lease as Lease;
  } catch {
    // unreadable: treated as ended
  }
  return undefined;
}

const seconds = (ms: number) => `${Math.max(0, Math.round(ms / 1000))} s`;

/** Takes the lease of `client`'s mirror, or throws SyncLockedError naming its holder. */
export async function acquireLease(
  client: S3Client,
  key: string,
  options: { onTakeOver: (reason: string) => void; times?: Partial<LeaseTimes> },
): Promise<WriterLock> {
  const times: LeaseTimes = { leaseMs: LEASE_MS, renewMs: RENEW_MS, safetyMs: SAFETY_MS, ...options.times };
  const where = `${client.name}${key}`;
  const namespace = pidNamespace();
  const mine = {
    token: randomBytes(8).toString('hex'),
    host: os.hostname(),
    pid: process.pid,
    ...(namespace ? { pidNamespace: namespace } : {}),
    since: new Date().toISOString(),
  };
  /** the store's clock: its last Date header, else ours */
  const storeNow = () => client.serverTime() ?? Date.now();
  const body = (endsAt: number) => Buffer.from(`${JSON.stringify({ ...mine, endsAt })}\n`);
  let etag: string;
  /** our monotonic clock's time past which this writer no longer writes */
  let validUntil: number;
  const taken = (started: number) => {
    validUntil = started + times.leaseMs - times.safetyMs;
  };

  let started = performance.now();
  try {
    ({ etag } = await client.put(key, body(storeNow() + times.leaseMs), { ifNoneMatch: '*' }));
    taken(started);
  } catch (error) {
    if (!(error instanceof PreconditionFailedError)) throw error;
    const held = await client.get(key);
    const lease = held ? parse(held.body) : undefined;
    const now = storeNow();
    // A lease of a process of this host that no longer runs (killed; its cron line runs next) is over, ended or not.
    const gone = lease !== undefined && lease.endsAt > now && holderGone(lease);
    if (held && lease && lease.endsAt > now && !gone) {
      throw new SyncLockedError(
        `another swapx sync (pid ${lease.pid} on ${lease.host}, since ${lease.since}) holds the lease of ${client.name} for ${seconds(lease.endsAt - now)} more; this run stopped`,
      );
    }
    started = performance.now();
    try {
      ({ etag } = held
        ? await client.put(key, body(storeNow() + times.leaseMs), { ifMatch: held.etag })
        : await client.put(key, body(storeNow() + times.leaseMs), { ifNoneMatch: '*' }));
    } catch (again) {
      if (again instanceof PreconditionFailedError)
        throw new SyncLockedError(`another swapx sync took the lease of ${client.name} at the same moment; this run stopped`);
      throw again;
    }
    taken(started);
    if (gone) options.onTakeOver(`a lease left by pid ${lease.pid} (since ${lease.since}), which is no longer running`);
    else if (lease && lease.endsAt > 0)
      options.onTakeOver(`a lease of pid ${lease.pid} on ${lease.host} (since ${lease.since}), ended ${seconds(now - lease.endsAt)} ago`);
  }

  let lost: string | undefined;
  let renewing: Promise<void> = Promise.resolve();
  const renew = async () => {
    const started = performance.now();
    try {
      ({ etag } = await client.put(key, body(storeNow() + times.leaseMs), { ifMatch: etag }));
      taken(started);
    } catch (error) {
      if (error instanceof PreconditionFailedError) lost = 'was taken over';
      // Another failure (the store out of reach): the lease runs on until validUntil, and the next renewal retries.
    }
  };
  const timer = setInterval(() => {
    renewing = renew();
  }, times.renewMs);
  timer.unref();

  return {
    check: async () => {
      if (lost === undefined && performance.now() > validUntil) lost = 'could not be renewed in time';
      if (lost !== undefined) {
        throw new SyncLockedError(`the lease of ${where} ${lost} while this sync ran; it stopped before writing more: run it again`);
      }
    },
    release: async () => {
      clearInterval(timer);
      await renewing;
      if (lost !== undefined) return;
      // Given back: written ended, only while it is still ours.
      await client.put(key, body(0), { ifMatch: etag }).catch(() => {});
    },
    // A second Ctrl-C ends the process now: no request can be made; the lease ends by itself within LEASE_MS.
    releaseSync: () => clearInterval(timer),
  };
}
