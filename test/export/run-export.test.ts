/**
 * The export engine as a library call (no shell): runExport returns what it did or throws a typed error, and writes
 * the bytes the CLI writes. Against the sandbox over a real socket.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type SwapxClient } from '../../src/api/client.js';
import { AbortedError } from '../../src/api/errors.js';
import { LIST_SWAP_FIELDS } from '../../src/api/types.js';
import { ExportStoppedError, TargetRefusedError } from '../../src/export/errors.js';
import { runExport, type ExportDeps, type RunEvent } from '../../src/export/run-export.js';
import type { FormatName } from '../../src/formats/registry.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { planExport, type ExportPlan } from '../../src/export/plan.js';
import { tempDir } from '../helpers/cli.js';
import { DATA, FROM, TO, envIn, referenceExport } from '../helpers/swaps-fixture.js';

let sandbox: RunningSandbox;
let client: SwapxClient;
let dir: string;
let reference: string;

beforeAll(async () => {
  dir = tempDir('swapx-run-export-');
  sandbox = await startSandbox({ port: 0, ...DATA });
  client = createClient({ baseUrl: sandbox.url, credentials: { kind: 'basic', clientId: 'demo', apiKey: 'demo' } });
  reference = await referenceExport(envIn(dir, sandbox));
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

function plan(file: string | undefined, format: FormatName = 'jsonl'): ExportPlan {
  const output = { file, format, gzip: false, fields: LIST_SWAP_FIELDS, excelSafe: false };
  return planExport({ from: Date.parse(FROM), to: Date.parse(TO), output, concurrency: 4, now: Date.parse(TO) });
}

function deps(extra: Partial<ExportDeps> = {}): ExportDeps & { text: () => string } {
  const stdout = new PassThrough();
  const chunks: Buffer[] = [];
  stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { client, baseUrl: sandbox.url, stdout, ...extra, text: () => Buffer.concat(chunks).toString('utf8') };
}

describe('runExport', () => {
  it('writes to stdout the bytes the CLI writes and returns the summary, after a start event and one event per window', async () => {
    const events: RunEvent[] = [];
    const d = deps();
    const planned = plan(undefined);
    const outcome = await runExport(planned, d, (event) => void events.push(event));
    const lines = reference.split('\n').length - 1;
    expect(d.text()).toBe(reference);
    expect(outcome).toMatchObject({ status: 'exported', summary: { windowsDone: 6, windowsTotal: 6, swaps: lines, swapsThisRun: lines, outside: 0 } });
    expect(events[0]).toEqual({ type: 'start', plan: planned, windowsTotal: 6, windowsDone: 0, swaps: 0, dropped: 0 });
    expect(events.slice(1).map((e) => [e.type, 'windowsDone' in e ? e.windowsDone : -1])).toEqual([1, 2, 3, 4, 5, 6].map((n) => ['window', n]));
  });

  it('refuses a FILE that exists with a TargetRefusedError and changes nothing', async () => {
    const file = path.join(dir, 'exists.jsonl');
    fs.writeFileSync(file, 'mine\n');
    const error = await runExport(plan(file), deps()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetRefusedError);
    expect((error as TargetRefusedError).refusal).toEqual({ reason: 'exists' });
    expect((error as Error).message).toBe(`${file} exists`);
    expect(fs.readFileSync(file, 'utf8')).toBe('mine\n');
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('exists.jsonl'))).toEqual(['exists.jsonl']);
  });

  it('stopped after a window, throws ExportStoppedError naming what is saved; resumed, ends with the bytes of a run never stopped', async () => {
    const file = path.join(dir, 'stopped.jsonl');
    const controller = new AbortController();
    const stop = (event: RunEvent) => {
      if (event.type === 'window' && event.windowsDone === 2) controller.abort();
    };
    const error = await runExport(plan(file), deps({ signal: controller.signal }), stop).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExportStoppedError);
    const stopped = error as ExportStoppedError;
    expect(stopped.cause).toBeInstanceOf(AbortedError);
    // Stopped while its second window's event was handled: both are written, and checkpointed as the run stops.
    expect(stopped.saved).toEqual({ windowsDone: 2, windowsTotal: 6, partial: `${file}.partial` });
    expect(fs.existsSync(file)).toBe(false);

    const refused = await runExport(plan(file), deps()).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TargetRefusedError);
    expect((refused as TargetRefusedError).refusal).toMatchObject({ reason: 'unfinished', windowsDone: 2, windowsTotal: 6 });

    const events: RunEvent[] = [];
    const outcome = await runExport(plan(file), deps({ resume: true }), (event) => void events.push(event));
    expect(events[0]).toEqual({
      type: 'resuming',
      plan: plan(file),
      windowsDone: 2,
      windowsTotal: 6,
      ownRange: false,
      baseUrlWas: undefined,
    });
    expect(outcome.status).toBe('exported');
    expect(fs.readFileSync(file, 'utf8')).toBe(reference);
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('stopped.jsonl'))).toEqual(['stopped.jsonl']);
    // Complete now: a resume has nothing to do.
    expect(await runExport(plan(file), deps({ resume: true }))).toEqual({ status: 'complete' });
  });
});
