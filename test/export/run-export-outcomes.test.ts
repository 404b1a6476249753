/**
 * runExport against a client whose answers each test chooses (test/helpers/served-windows.ts): what reaches stdout on a terminal
 * and in a pipe, the encoder each plan gets, FILE's lock, what a failure or a second signal leaves behind, and the
 * errors each refusal throws.
 */
import fs from 'node:fs';
import { getEventListeners } from 'node:events';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { LIST_SWAP_FIELDS } from '../../src/api/types.js';
import { ExportStoppedError, TargetFileError, TargetRefusedError } from '../../src/export/errors.js';
import { runExport, type ExportDeps, type RunEvent } from '../../src/export/run-export.js';
import { acquireLock, SyncLockedError } from '../../src/fs/lock.js';
import type { FormatName } from '../../src/formats/registry.js';
import { planExport, type ExportOutput, type ExportPlan } from '../../src/export/plan.js';
import { tempDir } from '../helpers/cli.js';
import { BASE, MIN, serve, swap, type Served } from '../helpers/served-windows.js';

const BASE_URL = 'http://127.0.0.1:1';
/** The people view's header at its full width. */
const TABLE_HEADER =
  'withdrawnAt           bridge              route                                deposit            withdrawal          USD  USD check         id';

/** Three ten-minute windows from BASE, one at a time. */
function plan(file: string | undefined, format: FormatName = 'jsonl', output: Partial<ExportOutput> = {}): ExportPlan {
  return planExport({
    from: BASE,
    to: BASE + 30 * MIN,
    windowMs: 10 * MIN,
    output: { file, format, gzip: false, fields: ['id', 'bridge'], excelSafe: false, ...output },
    concurrency: 1,
    now: BASE + 86_400_000,
  });
}

/** One swap a window: a, b, c. */
const threeSwaps = (bridge = 'Stargate') => serve((from) => [swap('abc'[(from - BASE) / (10 * MIN)]!, (from - BASE) / MIN + 1, { bridge })]);

function deps(served: Served, extra: Partial<ExportDeps> = {}, isTTY?: boolean): ExportDeps & { text: () => string } {
  const stdout = Object.assign(new PassThrough(), isTTY === undefined ? {} : { isTTY });
  const chunks: Buffer[] = [];
  stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { client: served.client, baseUrl: BASE_URL, stdout, ...extra, text: () => Buffer.concat(chunks).toString('utf8') };
}

const fileIn = (name = 'out.jsonl') => path.join(tempDir('swapx-run-export-'), name);
const filesBeside = (file: string) => fs.readdirSync(path.dirname(file)).sort();
const lockOf = (file: string) => `${file}.partial.lock`;
const stopAfter = (controller: AbortController, windows: number) => (event: RunEvent) => {
  if (event.type === 'window' && event.windowsDone === windows) controller.abort();
};

describe('runExport to stdout', () => {
  it("CSV on a terminal: a server's controls and reordering marks are not shown", async () => {
    const d = deps(threeSwaps('Bad\u202eBridge\u0007'), {}, true);
    await runExport(plan(undefined, 'csv'), d);
    expect(d.text()).toBe('id,bridge\na,BadBridge\nb,BadBridge\nc,BadBridge\n');
  });

  it('CSV in a pipe, and JSON Lines on a terminal, keep every byte', async () => {
    const piped = deps(threeSwaps('Bad\u202eBridge\u0007'), {}, false);
    await runExport(plan(undefined, 'csv'), piped);
    expect(piped.text()).toBe('id,bridge\na,Bad\u202eBridge\u0007\nb,Bad\u202eBridge\u0007\nc,Bad\u202eBridge\u0007\n');
    const unsaid = deps(threeSwaps('Bad\u202eBridge\u0007'));
    await runExport(plan(undefined, 'csv'), unsaid);
    expect(unsaid.text()).toBe(piped.text());
    const json = deps(threeSwaps('Bad\u202eBridge'), {}, true);
    await runExport(plan(undefined, 'jsonl'), json);
    expect(json.text()).toBe('{"id":"a","bridge":"Bad\u202eBridge"}\n{"id":"b","bridge":"Bad\u202eBridge"}\n{"id":"c","bridge":"Bad\u202eBridge"}\n');
  });

  it('CSV with --excel-safe neutralises a formula; without it the cell is as sent', async () => {
    const safe = deps(threeSwaps('=HYPERLINK()'));
    await runExport(plan(undefined, 'csv', { excelSafe: true }), safe);
    expect(safe.text()).toBe("id,bridge\na,'=HYPERLINK()\nb,'=HYPERLINK()\nc,'=HYPERLINK()\n");
    const plain = deps(threeSwaps('=HYPERLINK()'));
    await runExport(plan(undefined, 'csv'), plain);
    expect(plain.text()).toBe('id,bridge\na,=HYPERLINK()\nb,=HYPERLINK()\nc,=HYPERLINK()\n');
  });

  it('every field: JSON Lines writes each swap as the API sent it, its keys in their order', async () => {
    const reversed = (id: string, minutes: number) => Object.fromEntries(Object.entries(swap(id, minutes)).reverse()) as ReturnType<typeof swap>;
    const served = serve((from) => [reversed('abc'[(from - BASE) / (10 * MIN)]!, (from - BASE) / MIN + 1)]);
    const d = deps(served);
    await runExport(plan(undefined, 'jsonl', { fields: LIST_SWAP_FIELDS }), d);
    expect(d.text()).toBe(['a', 'b', 'c'].map((id, i) => `${JSON.stringify(reversed(id, i * 10 + 1))}\n`).join(''));
  });

  it("the table on stdout takes the terminal's colours and width; without them it is plain and unlimited", async () => {
    const look = { chalk: new Chalk({ level: 1 }), width: 50 };
    const coloured = deps(threeSwaps(), { look });
    await runExport(plan(undefined, 'table', { fields: LIST_SWAP_FIELDS }), coloured);
    const lines = coloured.text().split('\n');
    expect(lines[0]).toBe('\u001b[1mwithdrawnAt           id\u001b[22m');
    expect(lines[1]).toBe('2026-11-02T00:01:00Z  a');

    const plain = deps(threeSwaps());
    await runExport(plan(undefined, 'table', { fields: LIST_SWAP_FIELDS }), plain);
    expect(plain.text().split('\n')[0]).toBe(TABLE_HEADER);
  });

  it('fails as the client does, with nothing saved', async () => {
    const served = serve((from) => (from === BASE ? [swap('a', 1)] : new Error('no route to host')));
    const error = await runExport(plan(undefined), deps(served)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExportStoppedError);
    expect((error as ExportStoppedError).saved).toBeUndefined();
    expect((error as ExportStoppedError).plan).toEqual(plan(undefined));
  });
});

describe('runExport to FILE', () => {
  it('writes FILE and leaves nothing else; the lock is held while it runs, and the stop signal listened to', async () => {
    const file = fileIn();
    const stop = new AbortController();
    const seen: string[][] = [];
    const listening: number[] = [];
    const outcome = await runExport(plan(file), deps(threeSwaps(), { stop: stop.signal }), () => {
      seen.push(filesBeside(file));
      listening.push(getEventListeners(stop.signal, 'abort').length);
    });
    expect(outcome).toMatchObject({ status: 'exported', summary: { windowsDone: 3, swaps: 3, windowsTotal: 3 } });
    expect(fs.readFileSync(file, 'utf8')).toBe('{"id":"a","bridge":"Stargate"}\n{"id":"b","bridge":"Stargate"}\n{"id":"c","bridge":"Stargate"}\n');
    expect(filesBeside(file)).toEqual(['out.jsonl']);
    expect(seen[0]).toEqual(['out.jsonl.partial', 'out.jsonl.partial.lock', 'out.jsonl.partial.manifest.json']);
    expect(listening).toEqual([1, 1, 1, 1]);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });

  it('a table to FILE is plain and unlimited, whatever the terminal', async () => {
    const file = fileIn('out.txt');
    await runExport(plan(file, 'table', { fields: LIST_SWAP_FIELDS }), deps(threeSwaps(), { look: { chalk: new Chalk({ level: 1 }), width: 40 } }));
    expect(fs.readFileSync(file, 'utf8').split('\n')[0]).toBe(TABLE_HEADER);
  });

  it('refuses a FILE that exists, changing nothing', async () => {
    const file = fileIn();
    fs.writeFileSync(file, 'mine\n');
    const error = await runExport(plan(file), deps(threeSwaps())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetRefusedError);
    expect((error as TargetRefusedError).refusal).toEqual({ reason: 'exists' });
    expect(fs.readFileSync(file, 'utf8')).toBe('mine\n');
    expect(filesBeside(file)).toEqual(['out.jsonl']);
  });

  it("refuses a FILE whose lock another run holds, with the lock's own error", async () => {
    const file = fileIn();
    const held = await acquireLock(path.dirname(file), { name: 'out.jsonl.partial.lock', what: 'export', where: file });
    try {
      const info = JSON.parse(fs.readFileSync(lockOf(file), 'utf8')) as { startedAt: string };
      const error = await runExport(plan(file), deps(threeSwaps())).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SyncLockedError);
      expect((error as Error).message).toBe(
        `another swapx export (pid ${process.pid}, since ${info.startedAt}) is running on ${file}; if it is not, delete ${lockOf(file)}`,
      );
    } finally {
      await held.release();
    }
    expect(filesBeside(file)).toEqual([]);
  });

  it('a FILE in a folder that is not there: a TargetFileError naming it', async () => {
    const file = path.join(tempDir('swapx-run-export-'), 'missing', 'out.jsonl');
    const error = await runExport(plan(file), deps(threeSwaps())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetFileError);
    expect((error as TargetFileError).target).toBe(file);
    expect(((error as TargetFileError).cause as NodeJS.ErrnoException).code).toBe('ENOENT');
  });

  it('a partial file that cannot be opened: a TargetFileError, and the lock released', async () => {
    const file = fileIn();
    fs.mkdirSync(`${file}.partial`);
    const error = await runExport(plan(file), deps(threeSwaps())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetFileError);
    expect((error as TargetFileError).target).toBe(file);
    expect(((error as TargetFileError).cause as NodeJS.ErrnoException).code).toBe('EISDIR');
    expect(filesBeside(file)).toEqual(['out.jsonl.partial']);
  });

  it('a refusal of swapx own (a manifest it cannot read) is thrown as it is, the lock released', async () => {
    const file = fileIn();
    fs.writeFileSync(`${file}.partial.manifest.json`, '{');
    const error = await runExport(plan(file), deps(threeSwaps())).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(TargetFileError);
    expect((error as Error).message).toBe(
      `${file}.partial.manifest.json is not a readable export manifest; delete it and the partial file beside it to start over`,
    );
    expect(filesBeside(file)).toEqual(['out.jsonl.partial.manifest.json']);
  });

  it('--force replaces a complete FILE; --resume finds it complete', async () => {
    const file = fileIn();
    fs.writeFileSync(file, 'old\n');
    expect(await runExport(plan(file), deps(threeSwaps(), { force: true }))).toMatchObject({ status: 'exported' });
    expect(fs.readFileSync(file, 'utf8')).toBe('{"id":"a","bridge":"Stargate"}\n{"id":"b","bridge":"Stargate"}\n{"id":"c","bridge":"Stargate"}\n');
    const served = threeSwaps();
    expect(await runExport(plan(file), deps(served, { resume: true }))).toEqual({ status: 'complete' });
    expect(served.asked).toEqual([]);
    expect(filesBeside(file)).toEqual(['out.jsonl']);
  });

  it('a failure before any window is saved leaves nothing; after, FILE.partial for a resume that starts from it', async () => {
    const file = fileIn();
    let fail = true;
    const served = serve((from) =>
      from === BASE + 10 * MIN && fail
        ? new Error('no route to host')
        : [swap('abc'[(from - BASE) / (10 * MIN)]!, (from - BASE) / MIN + 1, { bridge: 'Stargate' })],
    );
    const first = await runExport(plan(file), deps(serve(() => new Error('no route to host')))).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(ExportStoppedError);
    expect((first as ExportStoppedError).saved).toBeUndefined();
    expect(filesBeside(file)).toEqual([]);

    const second = await runExport(plan(file), deps(served)).catch((e: unknown) => e);
    expect(second).toBeInstanceOf(ExportStoppedError);
    expect((second as ExportStoppedError).saved).toEqual({ windowsDone: 1, windowsTotal: 3, partial: `${file}.partial` });
    expect((second as ExportStoppedError).plan).toEqual(plan(file));
    expect(filesBeside(file)).toEqual(['out.jsonl.partial', 'out.jsonl.partial.manifest.json']);

    const refused = await runExport(plan(file), deps(served)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TargetRefusedError);
    expect((refused as TargetRefusedError).refusal).toEqual({ reason: 'unfinished', saved: plan(file), windowsDone: 1, windowsTotal: 3, differences: [] });

    fail = false;
    const events: RunEvent[] = [];
    const outcome = await runExport(plan(file), deps(served, { resume: true, baseUrl: 'http://127.0.0.1:2' }), (event) => void events.push(event));
    expect(events.slice(0, 2)).toEqual([
      { type: 'resuming', plan: plan(file), windowsDone: 1, windowsTotal: 3, ownRange: false, baseUrlWas: BASE_URL },
      { type: 'start', plan: plan(file), windowsTotal: 3, windowsDone: 1, swaps: 1, dropped: 0 },
    ]);
    expect(outcome).toMatchObject({ status: 'exported', plan: plan(file), summary: { windowsDone: 3, swaps: 3, swapsThisRun: 2 } });
    expect(fs.readFileSync(file, 'utf8')).toBe('{"id":"a","bridge":"Stargate"}\n{"id":"b","bridge":"Stargate"}\n{"id":"c","bridge":"Stargate"}\n');
  });

  it('--resume of an export of another query: refused, with what differs', async () => {
    const file = fileIn();
    const controller = new AbortController();
    await runExport(plan(file), deps(threeSwaps(), { signal: controller.signal }), stopAfter(controller, 1)).catch(() => {});
    const other = plan(file, 'jsonl', { fields: ['id'] });
    const error = await runExport(other, deps(threeSwaps(), { resume: true })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetRefusedError);
    expect((error as TargetRefusedError).refusal).toEqual({
      reason: 'different',
      saved: plan(file),
      windowsDone: 1,
      windowsTotal: 3,
      differences: [{ key: 'fields', was: ['id', 'bridge'], now: ['id'] }],
    });
    expect(filesBeside(file)).toEqual(['out.jsonl.partial', 'out.jsonl.partial.manifest.json']);
  });

  it('a second signal before any window is saved: the lock released and the partial export removed at once', async () => {
    const file = fileIn('out.parquet');
    const signal = new AbortController();
    const stop = new AbortController();
    let after: string[] | undefined;
    const error = await runExport(plan(file, 'parquet'), deps(threeSwaps(), { signal: signal.signal, stop: stop.signal }), (event) => {
      if (event.type !== 'start') return;
      fs.writeFileSync(`${file}.partial.rowgroups`, '');
      signal.abort();
      stop.abort();
      after = filesBeside(file);
    }).catch((e: unknown) => e);
    expect(after).toEqual([]);
    expect(error).toBeInstanceOf(ExportStoppedError);
    expect(filesBeside(file)).toEqual([]);
  });

  it('a second signal before any window is saved removes what is there of the export, whichever of its files is gone', async () => {
    const file = fileIn();
    const signal = new AbortController();
    const stop = new AbortController();
    let after: string[] | undefined;
    const error = await runExport(plan(file), deps(threeSwaps(), { signal: signal.signal, stop: stop.signal }), (event) => {
      if (event.type !== 'start') return;
      // The partial file removed by hand (and no Parquet row groups): the manifest goes all the same.
      fs.rmSync(`${file}.partial`);
      signal.abort();
      stop.abort();
      after = filesBeside(file);
    }).catch((e: unknown) => e);
    expect(after).toEqual([]);
    expect((error as ExportStoppedError).saved).toBeUndefined();
  });

  it('a second signal after a window is saved: the lock released at once, the partial export kept', async () => {
    const file = fileIn();
    const signal = new AbortController();
    const stop = new AbortController();
    let after: string[] | undefined;
    const error = await runExport(plan(file), deps(threeSwaps(), { signal: signal.signal, stop: stop.signal }), (event) => {
      if (event.type !== 'window') return;
      signal.abort();
      stop.abort();
      after = filesBeside(file);
    }).catch((e: unknown) => e);
    expect(after).toEqual(['out.jsonl.partial', 'out.jsonl.partial.manifest.json']);
    expect((error as ExportStoppedError).saved).toEqual({ windowsDone: 1, windowsTotal: 3, partial: `${file}.partial` });
  });

  it('Parquet to FILE: a Parquet file; stopped, its row groups kept beside the partial file for the resume', async () => {
    const file = fileIn('out.parquet');
    const controller = new AbortController();
    // A row group is written once 2,000 rows wait: the first window's.
    const many = Array.from({ length: 2_000 }, (_, i) => swap(`a${String(i).padStart(4, '0')}`, 1 + i / 1_000));
    const served = () => serve((from) => (from === BASE ? many : [swap(from === BASE + 10 * MIN ? 'b' : 'c', (from - BASE) / MIN + 1)]));
    const error = await runExport(plan(file, 'parquet'), deps(served(), { signal: controller.signal }), stopAfter(controller, 1)).catch((e: unknown) => e);
    expect((error as ExportStoppedError).saved).toEqual({ windowsDone: 1, windowsTotal: 3, partial: `${file}.partial` });
    expect(filesBeside(file)).toEqual(['out.parquet.partial', 'out.parquet.partial.manifest.json', 'out.parquet.partial.rowgroups']);
    expect(await runExport(plan(file, 'parquet'), deps(served(), { resume: true }))).toMatchObject({ summary: { swaps: 2_002, swapsThisRun: 2 } });
    const bytes = fs.readFileSync(file);
    expect(bytes.subarray(0, 4).toString()).toBe('PAR1');
    expect(bytes.subarray(-4).toString()).toBe('PAR1');
    expect(filesBeside(file)).toEqual(['out.parquet']);
  });
});
