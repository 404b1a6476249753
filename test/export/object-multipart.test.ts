/**
 * An export to an object large enough for a multipart upload (the engine, runExportToObject, with parts of S3's 5 MiB
 * minimum instead of 16 MiB above 64 MiB), against the real S3 server: it lands whole, byte for byte the file export,
 * in parts; stopped (Ctrl-C) while its parts go up, it leaves no object and no parts, and its finished file stays
 * for the next run, which uploads it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type SwapxClient } from '../../src/api/client.js';
import { AbortedError } from '../../src/api/errors.js';
import { LIST_SWAP_FIELDS } from '../../src/api/types.js';
import { UploadFailedError } from '../../src/export/errors.js';
import { type ObjectEvent, runExportToObject } from '../../src/export/object/run.js';
import { recordPath, stageFile } from '../../src/export/object/stage.js';
import { runExport } from '../../src/export/run-export.js';
import { openS3Client } from '../../src/mirror/lake/s3/open.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { planExport } from '../../src/export/plan.js';
import { tempDir } from '../helpers/cli.js';
import { useBucket } from '../helpers/s3.js';

const FROM = Date.parse('2026-11-02T00:00:00Z');
const TO = Date.parse('2026-11-02T04:00:00Z');
const PART = 5 * 1024 * 1024;
let sandbox: RunningSandbox;
let api: SwapxClient;
let dir: string;
let local: Buffer;
beforeAll(async () => {
  dir = tempDir('swapx-object-parts-');
  sandbox = await startSandbox({ port: 0, seed: 29, swapsPerHour: 3000 });
  api = createClient({ baseUrl: sandbox.url, credentials: { kind: 'basic', clientId: 'demo', apiKey: 'demo' } });
  const file = path.join(dir, 'local.jsonl');
  await runExport(plan({ file }), { client: api, baseUrl: sandbox.url, stdout: process.stdout });
  local = fs.readFileSync(file);
});
afterAll(() => sandbox.close());
const lake = useBucket();

function plan(output: { file: string; object?: string }) {
  return planExport({
    from: FROM,
    to: TO,
    output: { ...output, format: 'jsonl', gzip: false, fields: LIST_SWAP_FIELDS, excelSafe: false },
    concurrency: 4,
    now: TO,
  });
}

async function s3() {
  return (await openS3Client(`s3://${lake.bucket}`, { env: lake.env })).client;
}

function run(key: string, signal?: AbortSignal, onEvent?: (event: ObjectEvent) => void) {
  const object = `s3://${lake.bucket}/${key}`;
  const file = stageFile(object, path.join(dir, 'cache'));
  const deps = { client: api, baseUrl: sandbox.url, stdout: process.stdout, signal, s3: { env: lake.env, signal, multipartThreshold: PART, partSize: PART } };
  return { file, outcome: runExportToObject(plan({ file, object }), deps, onEvent) };
}

describe('an export uploaded in parts', () => {
  it('lands whole, byte for byte the file export, as a multipart object; no upload is left', async () => {
    expect(local.length).toBeGreaterThan(2 * PART);
    const { file, outcome } = run('parts/day.jsonl');
    const done = await outcome;
    expect(done.status === 'exported' && done.bytes).toBe(local.length);
    const client = await s3();
    const head = await client.head('parts/day.jsonl');
    // A multipart object's ETag counts its parts.
    expect(head?.etag).toBe(`"${/^"([0-9a-f]{32})-/.exec(head!.etag)?.[1]}-${Math.ceil(local.length / PART)}"`);
    expect((await client.get('parts/day.jsonl'))?.body.equals(local)).toBe(true);
    expect(await client.uploads('')).toEqual([]);
    await client.close();
    expect(fs.existsSync(path.dirname(file))).toBe(false);
  });

  it('stopped while its parts go up: no object, no parts; the finished file stays, and the next run uploads it', async () => {
    const controller = new AbortController();
    const { file, outcome } = run('stopped/day.jsonl', controller.signal);
    // Once the upload is begun (its id recorded), the run is stopped.
    const watch = (async () => {
      while (!controller.signal.aborted) {
        if (fs.existsSync(recordPath(file)) && fs.readFileSync(recordPath(file), 'utf8').includes('uploadId')) controller.abort();
        await sleep(2);
      }
    })();
    const error = await outcome.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    await watch;
    expect(error).toBeInstanceOf(UploadFailedError);
    expect((error as UploadFailedError).cause).toBeInstanceOf(AbortedError);
    const client = await s3();
    expect(await client.uploads('')).toEqual([]);
    expect(await client.head('stopped/day.jsonl')).toBeUndefined();
    expect(fs.readFileSync(file).equals(local)).toBe(true);
    const events: string[] = [];
    const again = await run('stopped/day.jsonl', undefined, (event) => void events.push(event.type)).outcome;
    expect(again.status).toBe('uploaded');
    expect(events).toEqual(['store', 'uploading']);
    expect((await client.get('stopped/day.jsonl'))?.body.equals(local)).toBe(true);
    expect(await client.uploads('')).toEqual([]);
    await client.close();
  });
});
