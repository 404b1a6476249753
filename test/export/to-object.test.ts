/**
 * `swapx swaps … -o s3://BUCKET/KEY`, against a real S3 server (Ceph's RADOS Gateway): each format lands byte for
 * byte as the same export to a local file; the object is there whole or not at all; an existing object is refused
 * unless --force, as an existing file is; an upload refused leaves the finished export, says where, and exits with
 * the refusal's code, and the run again uploads it without a request to the API; an export interrupted is resumed
 * from its stage; no multipart upload is left behind. Through the CLI's entry point.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { openS3Client } from '../../src/mirror/lake/s3/open.js';
import { stageFile } from '../../src/export/object/stage.js';
import { cacheDir } from '../../src/config/cache.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { LIST_SWAP_FIELDS } from '../../src/api/types.js';
import { collect, spawnCli, tempDir } from '../helpers/cli.js';
import { Capture, runSwapx } from '../helpers/run.js';
import { useBucket } from '../helpers/s3.js';
import { s3Env, signedRequest } from '../../scripts/support/s3-server.js';
import { DATA, FROM, TO, envIn, interrupted, range } from '../helpers/swaps-fixture.js';

let api: RunningSandbox;
let slow: RunningSandbox;
let dir: string;
beforeAll(async () => {
  dir = tempDir('swapx-to-object-');
  api = await startSandbox({ port: 0, ...DATA });
  slow = await startSandbox({ port: 0, ...DATA, latencyMs: 150 });
});
afterAll(() => Promise.all([api.close(), slow.close()]));
const lake = useBucket();

/** The API and the bucket, and a profile folder (and so a stage) of the test's own. */
function env(name: string, user = lake.server.owner): NodeJS.ProcessEnv {
  return { ...envIn(path.join(dir, name), api), ...s3Env(lake.server, user) };
}

async function client() {
  return (await openS3Client(`s3://${lake.bucket}`, { env: lake.env })).client;
}

async function object(key: string): Promise<Buffer | undefined> {
  const s3 = await client();
  try {
    return (await s3.get(key))?.body;
  } finally {
    await s3.close();
  }
}

/** The multipart uploads begun and not ended in the bucket: none is ever left. */
async function uploads(): Promise<string[]> {
  const s3 = await client();
  try {
    return (await s3.uploads('')).map((upload) => upload.key);
  } finally {
    await s3.close();
  }
}

async function localExport(name: string, args: string[] = []): Promise<Buffer> {
  const file = path.join(dir, 'local', name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const r = await runSwapx(['swaps', ...range, ...args, '-o', file, '--force', '-q'], { env: env('local') });
  expect([r.code, r.stderr]).toEqual([0, '']);
  return fs.readFileSync(file);
}

describe('swapx swaps -o s3://BUCKET/KEY', () => {
  it.each(['week.jsonl', 'week.jsonl.gz', 'week.csv', 'week.csv.gz', 'week.json', 'week.json.gz', 'week.parquet'])(
    '%s lands byte for byte as the same export to a file, and its stage is gone',
    async (name) => {
      const url = `s3://${lake.bucket}/formats/${name}`;
      const e = env(`formats-${name}`);
      const r = await runSwapx(['swaps', ...range, '-o', url, '-q'], { env: e });
      expect([r.code, r.stderr, r.stdout]).toEqual([0, '', '']);
      expect((await object(`formats/${name}`))?.equals(await localExport(name))).toBe(true);
      expect(fs.existsSync(path.dirname(stageFile(url, cacheDir(e))))).toBe(false);
    },
  );

  it('says what it uploaded: the lines of a file export, then the upload', async () => {
    const url = `s3://${lake.bucket}/said/day.csv`;
    const r = await runSwapx(['swaps', ...range, '-o', url], { env: env('said') });
    expect(r.code).toBe(0);
    const lines = r.stderr.trimEnd().split('\n');
    const size = (await object('said/day.csv'))!.length;
    const words = size < 1e6 ? `${(size / 1e3).toFixed(1)} KB` : `${(size / 1e6).toFixed(1)} MB`;
    expect(lines[0]).toBe(`Uploading ${words} to ${url}`);
    expect(lines[1]).toMatch(new RegExp(`^Exported 1,\\d{3} swaps to ${url.replace(/[./]/g, '\\$&')}$`));
    expect(lines.at(-2)).toBe(`  uploaded    ${words}, whole`);
  });

  it('an object there already is refused (exit 2) unless --force, as a file is; --resume of one written since: nothing to do', async () => {
    const url = `s3://${lake.bucket}/there/day.jsonl`;
    const e = env('there');
    expect((await runSwapx(['swaps', ...range, '-o', url, '-q'], { env: e })).code).toBe(0);
    const again = await runSwapx(['swaps', ...range, '-o', url], { env: e });
    expect([again.code, again.stderr]).toEqual([2, `swapx: error: ${url} exists; add --force to overwrite it\n`]);
    const resumed = await runSwapx(['swaps', ...range, '-o', url, '--resume'], { env: e });
    expect([resumed.code, resumed.stderr]).toEqual([0, `${url} is complete already: nothing to resume (add --force to export it again)\n`]);
    const other = ['--from', '2026-11-02T00:00:00Z', '--to', '2026-11-02T01:00:00Z'];
    const forced = await runSwapx(['swaps', ...other, '-o', url, '--force', '-q'], { env: e });
    expect([forced.code, forced.stderr]).toEqual([0, '']);
    const local = path.join(dir, 'local', 'hour.jsonl');
    expect((await runSwapx(['swaps', ...other, '-o', local, '-q'], { env: env('local') })).code).toBe(0);
    expect((await object('there/day.jsonl'))?.equals(fs.readFileSync(local))).toBe(true);
  });

  it('refuses credentials in the URL (exit 2) before anything else, repeating none of it', async () => {
    for (const url of ['s3://AKIAEXAMPLE:s3cr3t@my-lake/x.csv', 's3://AKIAEXAMPLE:se/cr3t@my-lake/x.nope']) {
      const r = await runSwapx(['swaps', ...range, '-o', url], { env: env('keys') });
      expect([r.code, r.stderr]).toEqual([
        2,
        'swapx: error: -o: an s3:// URL never carries credentials: give them as AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile (AWS_PROFILE)\n',
      ]);
    }
    const folder = await runSwapx(['swaps', ...range, '-o', `s3://${lake.bucket}/reports/`], { env: env('keys') });
    expect([folder.code, folder.stderr]).toEqual([2, 'swapx: error: -o: the s3:// URL names no object (expected s3://BUCKET/KEY)\n']);
    const unknown = await runSwapx(['swaps', ...range, '-o', `s3://${lake.bucket}/x.txt`], { env: env('keys') });
    expect([unknown.code, unknown.stderr]).toEqual([
      2,
      `swapx: error: -o s3://${lake.bucket}/x.txt: swapx does not know the extension .txt (known: .json, .jsonl, .ndjson, .csv, .parquet, and .gz after a text one)\n`,
    ]);
    const lookup = await runSwapx(['chains', '-o', `s3://${lake.bucket}/chains.json`], { env: env('keys') });
    expect([lookup.code, lookup.stderr]).toEqual([
      2,
      'swapx: error: -o: an s3:// object is written by swapx swaps; here, write a file (-o FILE) and upload it\n',
    ]);
  });

  it('a wrong key (exit 3) and a missing bucket (exit 2, named) are said before any window is fetched; nothing is left', async () => {
    const wrong = { ...env('refused'), AWS_ACCESS_KEY_ID: 'NOSUCHKEYAAAA' };
    const url = `s3://${lake.bucket}/refused.csv`;
    const r = await runSwapx(['swaps', ...range, '-o', url], { env: wrong });
    expect([r.code, r.stderr]).toEqual([
      3,
      'swapx: error: the S3 server does not know the access key from the environment (AWS_ACCESS_KEY_ID) (InvalidAccessKeyId)\n',
    ]);
    const missing = await runSwapx(['swaps', ...range, '-o', 's3://swapx-no-such-bucket/refused.csv'], { env: env('refused') });
    expect([missing.code, missing.stderr]).toEqual([
      2,
      `swapx: error: the bucket 'swapx-no-such-bucket' does not exist at ${lake.server.endpoint} (NoSuchBucket)\n`,
    ]);
    expect(fs.readdirSync(path.join(cacheDir(wrong), 'exports'))).toEqual([]);
  });

  it('an upload refused leaves the finished export and says so (exit 3); the same command again uploads it without asking the API', async () => {
    // The other user may list and read the bucket, not write to it: the export runs, its upload is refused.
    const policy = {
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Allow',
          Principal: { AWS: ['arn:aws:iam:::user/other'] },
          Action: ['s3:ListBucket', 's3:GetObject'],
          Resource: [`arn:aws:s3:::${lake.bucket}`, `arn:aws:s3:::${lake.bucket}/*`],
        },
      ],
    };
    const set = await signedRequest(lake.server, lake.server.owner, 'PUT', `/${lake.bucket}?policy`, JSON.stringify(policy));
    expect(set.status).toBe(204);
    const url = `s3://${lake.bucket}/later/day.parquet`;
    const e = env('later', lake.server.other);
    const r = await runSwapx(['swaps', ...range, '-o', url, '-q'], { env: e });
    const staged = stageFile(url, cacheDir(e));
    expect([r.code, r.stderr]).toEqual([
      3,
      `swapx: error: access denied to write ${url} with the credentials from the environment (AWS_ACCESS_KEY_ID) (AccessDenied); ${url} was not written; ` +
        `the export is complete in ${staged}; upload it with: swapx swaps --from 2026-11-02T00:00:00Z --to 2026-11-02T03:00:00Z -o ${url} --resume\n`,
    ]);
    expect(await object('later/day.parquet')).toBeUndefined();
    const finished = fs.readFileSync(staged);
    // The API is out of reach: what is uploaded is what was finished.
    const owner = { ...e, ...s3Env(lake.server), SWAPX_BASE_URL: 'http://127.0.0.1:9' };
    const again = await runSwapx(['swaps', ...range, '-o', url], { env: owner });
    expect([again.code, again.stderr]).toEqual([
      0,
      `Uploading ${(finished.length / 1000).toFixed(1)} KB to ${url} (the export an earlier run finished: nothing is fetched)\nUploaded to ${url}\n`,
    ]);
    expect((await object('later/day.parquet'))?.equals(finished)).toBe(true);
    expect((await object('later/day.parquet'))?.equals(await localExport('day.parquet'))).toBe(true);
    expect(fs.existsSync(path.dirname(staged))).toBe(false);
  });

  it('an export interrupted is resumed from its stage, and lands the bytes of one run; nothing is under the key meanwhile', async () => {
    const url = `s3://${lake.bucket}/resumed/day.csv.gz`;
    const e = { ...env('resumed'), SWAPX_BASE_URL: slow.url };
    const staged = stageFile(url, cacheDir(e));
    const saved = await interrupted(e, ['swaps', ...range, '-o', url, '--concurrency', '1', '-q'], staged, 2);
    expect(saved.windowsDone).toBeGreaterThanOrEqual(2);
    expect(await object('resumed/day.csv.gz')).toBeUndefined();
    const plain = await runSwapx(['swaps', ...range, '-o', url], { env: e });
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(
      new RegExp(
        `^swapx: error: an unfinished export to ${url.replace(/[./]/g, '\\$&')} exists \\(\\d+/6 windows done\\); resume it with: swapx swaps .* -o ${url.replace(/[./]/g, '\\$&')} --resume — or add --force to start over\\n$`,
      ),
    );
    const r = await runSwapx(['swaps', ...range, '-o', url, '--resume', '-q'], { env: e });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect((await object('resumed/day.csv.gz'))?.equals(await localExport('day.csv.gz'))).toBe(true);
    expect(await uploads()).toEqual([]);
  });

  it('Ctrl-C during the upload: exit 130, the export kept; the run again uploads it', async () => {
    const url = `s3://${lake.bucket}/stopped/day.jsonl`;
    const e = env('stopped');
    const controller = new AbortController();
    const stderr = new Capture();
    const write = stderr._write.bind(stderr);
    stderr._write = (chunk, encoding, callback) => {
      if (String(chunk).startsWith('Uploading')) controller.abort();
      write(chunk, encoding, callback);
    };
    const r = await runSwapx(['swaps', ...range, '-o', url], { env: e, stderr, signal: controller.signal });
    const staged = stageFile(url, cacheDir(e));
    expect(r.code).toBe(130);
    expect(stderr.text.trimEnd().split('\n').at(-1)).toBe(
      `swapx: interrupted before ${url} was uploaded; the export is complete in ${staged}; upload it with: swapx swaps --from 2026-11-02T00:00:00Z --to 2026-11-02T03:00:00Z -o ${url} --resume`,
    );
    expect(await object('stopped/day.jsonl')).toBeUndefined();
    const again = await runSwapx(['swaps', ...range, '-o', url, '--resume', '-q'], { env: { ...e, SWAPX_BASE_URL: 'http://127.0.0.1:9' } });
    expect([again.code, again.stderr]).toEqual([0, '']);
    expect((await object('stopped/day.jsonl'))?.equals(await localExport('day.jsonl'))).toBe(true);
  });

  it('a swapx killed (SIGKILL) mid-export, then run again with --resume: the bytes of one run, and only then', async () => {
    const url = `s3://${lake.bucket}/killed/day.json`;
    const e = { ...env('killed'), SWAPX_BASE_URL: slow.url };
    const staged = stageFile(url, cacheDir(e));
    const child = spawnCli(['swaps', ...range, '-o', url, '--concurrency', '1'], { env: e });
    const done = collect(child);
    const manifest = `${staged}.partial.manifest.json`;
    for (let i = 0; i < 1000; i += 1) {
      const m = fs.existsSync(manifest) ? (JSON.parse(fs.readFileSync(manifest, 'utf8') || '{}') as { windowsDone?: number }) : {};
      if ((m.windowsDone ?? 0) >= 2) break;
      await sleep(10);
    }
    child.kill('SIGKILL');
    expect((await done).signal).toBe('SIGKILL');
    expect(await object('killed/day.json')).toBeUndefined();
    const r = await runSwapx(['swaps', ...range, '-o', url, '--resume', '-q'], { env: e });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect((await object('killed/day.json'))?.equals(await localExport('day.json'))).toBe(true);
  });

  it('a multipart upload a killed run recorded is aborted by the next run: no parts are left in the bucket', async () => {
    const url = `s3://${lake.bucket}/orphan/day.jsonl`;
    const e = env('orphan');
    const staged = stageFile(url, cacheDir(e));
    // What a run killed during its upload leaves: the finished file, and the upload begun, in its record.
    const begun = await signedRequest(lake.server, lake.server.owner, 'POST', `/${lake.bucket}/orphan/day.jsonl?uploads`);
    const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(begun.body)![1]!;
    expect(await uploads()).toEqual(['orphan/day.jsonl']);
    fs.mkdirSync(path.dirname(staged), { recursive: true });
    fs.writeFileSync(staged, await localExport('day.jsonl'));
    const query = {
      baseUrl: api.url,
      filter: null,
      from: FROM,
      to: TO,
      windowMs: 1_800_000,
      format: 'jsonl',
      fields: LIST_SWAP_FIELDS,
      gzip: false,
      excelSafe: false,
    };
    fs.writeFileSync(path.join(path.dirname(staged), 'upload.json'), JSON.stringify({ version: 1, object: url, query, uploadId }));
    const r = await runSwapx(['swaps', ...range, '-o', url, '-q'], { env: { ...e, SWAPX_BASE_URL: 'http://127.0.0.1:9' } });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(await uploads()).toEqual([]);
    expect((await object('orphan/day.jsonl'))?.equals(fs.readFileSync(path.join(dir, 'local', 'day.jsonl')))).toBe(true);
  });
});
