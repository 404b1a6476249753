/**
 * `swapx sync --out s3://BUCKET/PREFIX`, the lake, against a real S3 server (Ceph's RADOS Gateway): one Parquet
 * object per UTC day of completedAt, byte for byte the folder mirror's Parquet of the same clock, its state and
 * lease under `_swapx/`; a run again at the same clock writes no object; a second writer refused while the first
 * holds the lease; the failures of a wrong key, a missing bucket, a server down and keys in the URL, each one line
 * with its exit code. Through the CLI's entry point; the objects read back with DuckDB, from disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.js';
import { tempDir } from '../../helpers/cli.js';
import { query, sqlString } from '../../../scripts/support/duckdb.js';
import { runSwapx } from '../../helpers/run.js';
import { useBucket } from '../../helpers/s3.js';
import { s3Env, signedRequest } from '../../../scripts/support/s3-server.js';
import { openS3Client } from '../../../src/mirror/lake/s3/open.js';
import { syncEnv } from '../../helpers/sync.js';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const data = { seed: 131, swapsPerHour: 40 };
let api: RunningSandbox;
beforeAll(async () => {
  api = await startSandbox({ port: 0, ...data, now: () => NOW });
});
afterAll(() => api.close());
const lake = useBucket();

const env = () => ({ ...syncEnv(api), ...lake.env });
const SINCE = '2026-11-19T20:00:00Z';

/** The keys under `prefix`, and each object's bytes, fetched as a reader would. */
async function objects(prefix: string): Promise<Map<string, Buffer>> {
  const { client } = await openS3Client(`s3://${lake.bucket}/${prefix}`, { env: lake.env });
  try {
    const out = new Map<string, Buffer>();
    for (const { key } of (await client.list('')).objects) out.set(key, (await client.get(key))!.body);
    return out;
  } finally {
    await client.close();
  }
}

describe('a lake', () => {
  it('holds one Parquet object per day, the bytes of a folder mirror of the same clock; its own objects under _swapx/', async () => {
    const out = `s3://${lake.bucket}/swaps/main`;
    const r = await runSwapx(['sync', '--out', out, '--since', SINCE, '-q'], { env: env(), now: NOW });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const folder = path.join(tempDir('swapx-lake-'), 'folder');
    expect((await runSwapx(['sync', '--out', folder, '--since', SINCE, '--format', 'parquet', '-q'], { env: syncEnv(api), now: NOW })).code).toBe(0);
    const held = await objects('swaps/main/');
    expect([...held.keys()].sort()).toEqual([
      '_swapx/ids/2026-11-19.ids',
      '_swapx/ids/2026-11-20.ids',
      '_swapx/last-run.json',
      '_swapx/sync.json',
      '_swapx/sync.lock',
      'date=2026-11-19/part.parquet',
      'date=2026-11-20/part.parquet',
    ]);
    for (const day of ['2026-11-19', '2026-11-20']) {
      expect(held.get(`date=${day}/part.parquet`)!.equals(fs.readFileSync(path.join(folder, `date=${day}`, 'part.parquet')))).toBe(true);
    }
    // What an analyst reads (DuckDB's httpfs is not reachable here: the objects as fetched, the hive layout kept).
    const copy = tempDir('swapx-lake-read-');
    for (const [key, bytes] of held) {
      if (!key.startsWith('date=')) continue;
      fs.mkdirSync(path.join(copy, path.dirname(key)), { recursive: true });
      fs.writeFileSync(path.join(copy, key), bytes);
    }
    const [row] = await query(
      `SELECT count(*)::int AS n, count(DISTINCT id)::int AS ids FROM read_parquet(${sqlString(`${copy}/**/*.parquet`)}, hive_partitioning = true)`,
    );
    expect(row!.n).toBe(row!.ids);
    expect(row!.n).toBeGreaterThan(300);
  });

  it('run again at the same clock: no object is written (-v shows no PUT but the state, its last run and its lease)', async () => {
    const out = `s3://${lake.bucket}/again`;
    expect((await runSwapx(['sync', '--out', out, '--since', SINCE, '-q'], { env: env(), now: NOW })).code).toBe(0);
    const r = await runSwapx(['-v', 'sync', '--out', out, '-q'], { env: env(), now: NOW });
    expect(r.code).toBe(0);
    const puts = r.stderr
      .split('\n')
      .filter((line) => line.startsWith('PUT '))
      .map((line) => line.split(' ')[1]!.replace(/^.*\/again\//, ''));
    expect([...new Set(puts)].sort()).toEqual(['_swapx/last-run.json', '_swapx/sync.json', '_swapx/sync.lock']);
  });

  it('a second writer is refused while the first holds the lease, naming it', async () => {
    const out = `s3://${lake.bucket}/second`;
    expect((await runSwapx(['sync', '--out', out, '--since', SINCE, '-q'], { env: env(), now: NOW })).code).toBe(0);
    // A lease that ends in an hour, of another host: as a sync running elsewhere holds it.
    const lease = JSON.stringify({ token: 'x', host: 'elsewhere', pid: 7, since: '2026-11-20T11:59:00Z', endsAt: Date.now() + 3_600_000 });
    expect((await signedRequest(lake.server, lake.server.owner, 'PUT', `/${lake.bucket}/second/_swapx/sync.lock`, lease)).status).toBe(200);
    const r = await runSwapx(['sync', '--out', out], { env: env(), now: NOW });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `^swapx: error: another swapx sync \\(pid 7 on elsewhere, since 2026-11-20T11:59:00Z\\) holds the lease of s3://${lake.bucket}/second/ for \\d+ s more; this run stopped\\n$`,
      ),
    );
  });

  it('sync status reads it', async () => {
    const out = `s3://${lake.bucket}/status`;
    expect((await runSwapx(['sync', '--out', out, '--since', SINCE, '-q'], { env: env(), now: NOW })).code).toBe(0);
    const r = await runSwapx(['sync', 'status', '--out', out, '--json'], { env: env(), now: NOW });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      mirror: `s3://${lake.bucket}/status`,
      holds: '2 partitions of parquet',
      cursor: '2026-11-20T11:58:00Z',
      stale: false,
    });
  });

  it.each([
    ['a wrong secret', () => ({ ...env(), AWS_SECRET_ACCESS_KEY: 'wrong' }), 3],
    ['a bucket that does not exist', () => env(), 2],
    ['a server that is down', () => ({ ...env(), AWS_ENDPOINT_URL: 'http://127.0.0.1:9' }), 1],
  ])('%s: one line, its exit code, nothing written', async (name, environment, code) => {
    const bucket = name.startsWith('a bucket') ? 'swapx-no-such-bucket' : lake.bucket;
    const r = await runSwapx(['--retries', '0', 'sync', '--out', `s3://${bucket}/fail`, '--since', SINCE], { env: environment(), now: NOW });
    expect(r.code).toBe(code);
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(r.stderr).not.toContain(lake.env.AWS_SECRET_ACCESS_KEY);
    if (code === 2) expect(r.stderr).toContain('swapx-no-such-bucket');
  });

  it('keys in the URL: exit 2, never echoed', async () => {
    const r = await runSwapx(['sync', '--out', 's3://AKIAEXAMPLE:s3cr3tV4lue@bucket/x', '--since', SINCE], { env: env(), now: NOW });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/AKIAEXAMPLE|s3cr3tV4lue/);
  });
});

describe('s3Env', () => {
  it('names the endpoint and keys a run takes', () => {
    expect(Object.keys(s3Env(lake.server)).sort()).toEqual([
      'AWS_ACCESS_KEY_ID',
      'AWS_EC2_METADATA_DISABLED',
      'AWS_ENDPOINT_URL',
      'AWS_REGION',
      'AWS_SECRET_ACCESS_KEY',
    ]);
  });
});
