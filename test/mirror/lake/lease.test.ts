/**
 * The lake's one-writer lease (src/mirror/lake/lease.ts) on a real S3 server: one holder; a second refused naming
 * it; renewed while held; taken over once ended, said; a holder whose lease was taken over, or that could not renew
 * it in time, stops before its next write; given back, it is taken at once; of two takers of an ended lease, one
 * wins. Leases of seconds: the server's clock moves them, the test waits (past the end by more than a second: the
 * server's Date header names its second).
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { SyncLockedError } from '../../../src/fs/lock.js';
import { acquireLease } from '../../../src/mirror/lake/lease.js';
import type { S3Client } from '../../../src/mirror/lake/s3/client.js';
import { openS3Client } from '../../../src/mirror/lake/s3/open.js';
import { useBucket } from '../../helpers/s3.js';

const lake = useBucket();
const clients: S3Client[] = [];
afterAll(async () => {
  for (const client of clients.splice(0)) await client.close();
});
let n = 0;
async function client(prefix = `lease-${++n}`): Promise<S3Client> {
  const { client } = await openS3Client(`s3://${lake.bucket}/${prefix}`, { env: lake.env });
  clients.push(client);
  return client;
}
const KEY = '_swapx/sync.lock';
/** Short leases, with margins for a loaded machine and for the server's clock, which its Date header gives to the second. */
const quick = { leaseMs: 2000, renewMs: 400, safetyMs: 400 };
const none = () => {};

describe.concurrent('the lease', () => {
  it('one holder: a second is refused naming it; given back, it is taken at once', async () => {
    const c = await client();
    const first = await acquireLease(c, KEY, { onTakeOver: none });
    await expect(acquireLease(c, KEY, { onTakeOver: none })).rejects.toThrow(
      new RegExp(`^another swapx sync \\(pid ${process.pid} on \\S+, since \\S+\\) holds the lease of ${c.name} for (59|60) s more; this run stopped$`),
    );
    await first.check();
    await first.release();
    const second = await acquireLease(c, KEY, { onTakeOver: () => expect.unreachable('a lease given back is no take-over') });
    await second.release();
  });

  it('renewed while held: still held after three times its length', { timeout: 30_000 }, async () => {
    const c = await client();
    const held = await acquireLease(c, KEY, { onTakeOver: none, times: quick });
    await sleep(6000);
    await held.check();
    await expect(acquireLease(c, KEY, { onTakeOver: none, times: quick })).rejects.toBeInstanceOf(SyncLockedError);
    await held.release();
  });

  it('taken over once ended, and said; the one that lost it stops before its next write', async () => {
    const c = await client();
    const first = await acquireLease(c, KEY, { onTakeOver: none, times: { ...quick, renewMs: 60_000 } });
    await sleep(3200);
    // Not renewed in time: it knows, before anyone took it over.
    await expect(first.check()).rejects.toThrow(/ could not be renewed in time while this sync ran; it stopped before writing more: run it again$/);
    const said: string[] = [];
    const second = await acquireLease(c, KEY, { onTakeOver: (reason) => said.push(reason), times: quick });
    expect(said).toEqual([expect.stringMatching(new RegExp(`^a lease of pid ${process.pid} on \\S+ \\(since \\S+\\), ended \\d+ s ago$`))]);
    // The first gives back nothing it no longer holds.
    await first.release();
    await expect(acquireLease(c, KEY, { onTakeOver: none })).rejects.toBeInstanceOf(SyncLockedError);
    await second.release();
  });

  it('a renewal refused (taken over meanwhile): the holder stops at its next check', async () => {
    const c = await client();
    // Wide margins on a loaded machine: the take-over (at 1.8 s: the lease's 0.3 s, and a second, as the store's Date
    // header has whole seconds) must be done before the first's renewal (at 5 s), and that renewal answered (refused)
    // before its check (at 8 s).
    const acquired = performance.now();
    const first = await acquireLease(c, KEY, { onTakeOver: none, times: { leaseMs: 300, renewMs: 5000, safetyMs: 0 } });
    await sleep(1800);
    const second = await acquireLease(c, KEY, { onTakeOver: none, times: { leaseMs: 60_000, renewMs: 20_000, safetyMs: 15_000 } });
    expect(performance.now() - acquired, 'the take-over came after the renewal').toBeLessThan(5000);
    await sleep(8000 - (performance.now() - acquired));
    await expect(first.check()).rejects.toThrow(/ was taken over while this sync ran; it stopped before writing more: run it again$/);
    await second.release();
    await first.release();
  });

  it('of two takers of an ended lease, one wins', async () => {
    const c = await client();
    const ended = await acquireLease(c, KEY, { onTakeOver: none, times: { leaseMs: 500, renewMs: 60_000, safetyMs: 0 } });
    await sleep(1900);
    const results = await Promise.allSettled([acquireLease(c, KEY, { onTakeOver: none }), acquireLease(c, KEY, { onTakeOver: none })]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    for (const r of results) if (r.status === 'fulfilled') await r.value.release();
    await ended.release();
  });

  it('a lease of a process of this host that no longer runs is taken over at once, and said; of one still running, not', async () => {
    const c = await client();
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const lease = (pid: number) =>
      Buffer.from(JSON.stringify({ token: 't', host: os.hostname(), pid, since: '2026-11-27T00:00:00.000Z', endsAt: Date.now() + 600_000 }));
    await c.put(KEY, lease(dead));
    const said: string[] = [];
    const taker = await acquireLease(c, KEY, { onTakeOver: (reason) => said.push(reason) });
    expect(said).toEqual([`a lease left by pid ${dead} (since 2026-11-27T00:00:00.000Z), which is no longer running`]);
    await taker.release();
    // Our parent runs: its lease is held.
    await c.put(KEY, lease(process.ppid));
    await expect(acquireLease(c, KEY, { onTakeOver: none })).rejects.toThrow(new RegExp(`^another swapx sync \\(pid ${process.ppid} on `));
  });
});
