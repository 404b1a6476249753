/**
 * The lake under chaos, on the real S3 server: a sync through API faults, SIGKILLed at moments through its run and
 * run again, two syncs started at once, and a reader that lists and reads the day objects while syncs rewrite them:
 * each ends with the day objects byte for byte those of a clean lake of the same clock (one row per swap, its
 * latest version), and the reader never sees a day vanish or lose a row.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openS3Client } from '../../../src/mirror/lake/s3/open.js';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.js';
import { collect, runCli, spawnCli } from '../../helpers/cli.js';
import { runSwapx } from '../../helpers/run.js';
import { useBucket } from '../../helpers/s3.js';
import { syncEnv } from '../../helpers/sync.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-20T12:00:00Z');
const data = { seed: 141, swapsPerHour: 60 };
const SINCE = '2026-11-19T06:00:00Z';
const lake = useBucket();
const sandboxes: RunningSandbox[] = [];
let clean: RunningSandbox;
beforeAll(async () => {
  clean = await sandbox({});
});
afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
});

async function sandbox(options: { now?: number; faultRate?: number; latencyMs?: number; onRequest?: () => void }): Promise<RunningSandbox> {
  const { now = NOW, ...rest } = options;
  const made = await startSandbox({ port: 0, ...data, retryAfterSeconds: 0, ...rest, now: () => now });
  sandboxes.push(made);
  return made;
}

/** The day objects under `prefix`, by key: their ETags (a content hash: equal ETags, equal bytes). */
async function days(prefix: string): Promise<Record<string, string>> {
  const { client } = await openS3Client(`s3://${lake.bucket}/${prefix}`, { env: lake.env });
  try {
    return Object.fromEntries((await client.list('')).objects.filter((o) => o.key.startsWith('date=')).map((o) => [o.key, o.etag]));
  } finally {
    await client.close();
  }
}

const args = (prefix: string, ...extra: string[]) => ['sync', '--out', `s3://${lake.bucket}/${prefix}`, '--since', SINCE, '--format', 'jsonl', '-q', ...extra];
/** A clean lake of the query at the API's clock `now`: what every case must end as. */
const references = new Map<number, Promise<Record<string, string>>>();
function reference(now = NOW): Promise<Record<string, string>> {
  let made = references.get(now);
  if (!made) {
    made = (async () => {
      const api = now === NOW ? clean : await sandbox({ now });
      const r = await runSwapx(args(`clean-${now}`), { env: { ...syncEnv(api), ...lake.env }, now });
      expect(r.code, r.stderr).toBe(0);
      return days(`clean-${now}`);
    })();
    references.set(now, made);
  }
  return made;
}

describe.concurrent('the lake under chaos', { timeout: 120_000 }, () => {
  it('through API faults at rate 0.3: the clean lake', async () => {
    const api = await sandbox({ faultRate: 0.3 });
    const r = await runSwapx(['--retries', '15', ...args('faults')], { env: { ...syncEnv(api), ...lake.env }, now: NOW });
    expect(r.code, r.stderr).toBe(0);
    expect(await days('faults')).toEqual(await reference());
  });

  it('SIGKILLed at three moments of its run, then run again: the clean lake', async () => {
    let killed = 0;
    for (const [i, afterMs] of [100, 400, 900].entries()) {
      let answered: () => void = () => {};
      const first = new Promise<void>((resolve) => (answered = resolve));
      const api = await sandbox({ latencyMs: 20, onRequest: () => answered() });
      const env = { ...syncEnv(api), ...lake.env };
      const prefix = `killed-${i}`;
      const child = spawnCli(args(prefix), { env });
      const done = collect(child);
      await Promise.race([first.then(() => sleep(afterMs)), done]);
      child.kill('SIGKILL');
      if ((await done).signal === 'SIGKILL') killed += 1;
      // Its lease, left by a process of this host that no longer runs, is taken over at once by the cron line.
      const again = await runSwapx(args(prefix), { env, now: NOW });
      expect(again.code, again.stderr).toBe(0);
      expect(await days(prefix)).toEqual(await reference());
    }
    expect(killed).toBeGreaterThanOrEqual(2);
  });

  it('two syncs started at once: one writes, the other is refused naming it; the clean lake', async () => {
    const api = await sandbox({ latencyMs: 20 });
    const env = { ...syncEnv(api), ...lake.env };
    const runs = await Promise.all([runCli(args('twice'), { env }), runCli(args('twice'), { env })]);
    expect(runs.map((r) => r.code).sort()).toEqual([0, 1]);
    expect(runs.find((r) => r.code === 1)!.stderr).toMatch(
      /^swapx: error: another swapx sync \(pid \d+ on \S+, since \S+\) holds the lease of .* more; this run stopped\n$/,
    );
    expect(await days('twice')).toEqual(await reference());
  });

  it('a reader listing and reading the lake while a catch-up rewrites it: no day vanishes, none loses a swap', async () => {
    const later = NOW + DAY;
    // One API whose clock moves on a day between the first run and the catch-up.
    let clock = NOW;
    const api = await startSandbox({ port: 0, ...data, retryAfterSeconds: 0, latencyMs: 20, now: () => clock });
    sandboxes.push(api);
    const env = { ...syncEnv(api), ...lake.env };
    const first = await runSwapx(args('read'), { env, now: NOW });
    expect(first.code, first.stderr).toBe(0);
    const before = await days('read');
    const { client } = await openS3Client(`s3://${lake.bucket}/read`, { env: lake.env });
    /** the ids each day held when last read */
    const seen = new Map<string, Set<string>>();
    const problems: string[] = [];
    let reads = 0;
    let stop = false;
    const reader = (async () => {
      while (!stop) {
        const keys = (await client.list('')).objects.map((o) => o.key).filter((key) => key.startsWith('date='));
        for (const key of seen.keys()) if (!keys.includes(key)) problems.push(`${key} vanished`);
        for (const key of keys) {
          const object = await client.get(key);
          if (!object) {
            problems.push(`${key} listed, then not found`);
            continue;
          }
          const ids = new Set(
            object.body
              .toString('utf8')
              .trimEnd()
              .split('\n')
              .map((line) => (JSON.parse(line) as { id: string }).id),
          );
          for (const id of seen.get(key) ?? []) if (!ids.has(id)) problems.push(`${key} lost ${id}`);
          seen.set(key, ids);
          reads += 1;
        }
      }
    })();
    clock = later;
    const catchUp = await runSwapx(args('read'), { env, now: later });
    stop = true;
    await reader;
    await client.close();
    expect(catchUp.code, catchUp.stderr).toBe(0);
    expect(problems).toEqual([]);
    expect(reads).toBeGreaterThan(seen.size);
    const after = await days('read');
    // The catch-up rewrote days the reader was reading, and added others.
    expect(Object.keys(before).filter((key) => after[key] !== before[key]).length).toBeGreaterThan(0);
    expect(after).toEqual(await reference(later));
  });
});
