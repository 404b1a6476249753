/** The bulk exporter end to end, in-process: order, edges, concurrency, faults, formats, files and resume. */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { LIST_SWAP_FIELDS, type Swap } from '../../src/api/types.js';
import { startSandbox, swapsInWindow, type RunningSandbox } from '../../src/sandbox/index.js';
import { tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';
import { DATA, FROM, TO, envIn, interrupted, range, referenceExport } from '../helpers/swaps-fixture.js';

let plain: RunningSandbox;
let slow: RunningSandbox;
let faulty: RunningSandbox;
let dir: string;
let reference: string;

const envFor = (sandbox: RunningSandbox) => envIn(dir, sandbox);

function expectedSwaps(from: string, to: string): Swap[] {
  // The API includes both ends; the export owns [from, to).
  return swapsInWindow({ from, to }, DATA).filter((s) => Date.parse(s.withdrawnAt) < Date.parse(to));
}

beforeAll(async () => {
  dir = tempDir();
  plain = await startSandbox({ port: 0, ...DATA });
  slow = await startSandbox({ port: 0, ...DATA, latencyMs: 40 });
  faulty = await startSandbox({ port: 0, ...DATA, faultRate: 0.2, retryAfterSeconds: 0 });
  reference = await referenceExport(envFor(plain));
});
afterAll(async () => {
  await Promise.all([plain.close(), slow.close(), faulty.close()]);
});

describe('swapx swaps: what is written', () => {
  it('writes every swap of [from, to) once, ordered by withdrawnAt then id', () => {
    const rows = reference
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Swap);
    const expected = expectedSwaps(FROM, TO);
    expect(rows.length).toBe(expected.length);
    expect(new Set(rows.map((s) => s.id)).size).toBe(rows.length);
    expect(new Set(rows.map((s) => s.id))).toEqual(new Set(expected.map((s) => s.id)));
    for (let i = 1; i < rows.length; i += 1) {
      const [a, b] = [rows[i - 1]!, rows[i]!];
      const order = Date.parse(a.withdrawnAt) - Date.parse(b.withdrawnAt) || (a.id! < b.id! ? -1 : 1);
      expect(order).toBeLessThan(0);
    }
    // JSON Lines keep every field exactly as the API sent it.
    const byId = new Map(expected.map((s) => [s.id, s]));
    for (const row of rows.slice(0, 50)) expect(row).toEqual(byId.get(row.id));
  });

  it('writes a swap exactly on a window edge once', () => {
    const edges = ['2026-11-02T00:30:00Z', '2026-11-02T01:00:00Z', '2026-11-02T01:30:00Z', '2026-11-02T02:00:00Z', '2026-11-02T02:30:00Z'];
    const onEdge = expectedSwaps(FROM, TO).filter(
      (s) => edges.includes(s.withdrawnAt) || edges.includes(new Date(Date.parse(s.withdrawnAt)).toISOString().replace('.000Z', 'Z')),
    );
    expect(onEdge.length).toBeGreaterThan(0);
    for (const swap of onEdge) expect(reference.split(`"id":"${swap.id}"`).length - 1).toBe(1);
  });

  it('is byte-identical at concurrency 1 and 16 under random latency', async () => {
    const r = await runSwapx(['swaps', ...range, '--jsonl', '--concurrency', '16', '--window', '7m', '-q'], { env: envFor(slow) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(reference);
  });

  it('is byte-identical through --fault-rate 0.2, and counts the retries', async () => {
    const r = await runSwapx(['swaps', ...range, '--jsonl', '--concurrency', '4', '--retries', '10'], { env: envFor(faulty) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(reference);
    const retries = Number(/retries\s+(\d+)/.exec(r.stderr)?.[1]);
    expect(retries).toBeGreaterThan(0);
  });

  it('CSV: header in spec order without balanceChanges, every field read back by a CSV parser', async () => {
    const r = await runSwapx(['swaps', ...range, '--csv', '-q'], { env: envFor(plain) });
    const [header] = r.stdout.split('\n');
    expect(header).toBe(LIST_SWAP_FIELDS.join(','));
    const rows = parse(r.stdout, { columns: true }) as Record<string, string>[];
    const json = reference
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const cell = (value: unknown) => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));
    // One comparison of every cell (an expect per cell costs seconds for thousands of rows).
    expect(rows).toEqual(json.map((record) => Object.fromEntries(LIST_SWAP_FIELDS.map((field) => [field, cell(record[field])]))));
  });

  it('JSON is one array; -o FILE.jsonl.gz round-trips through gunzip', async () => {
    const json = await runSwapx(['swaps', ...range, '--json', '-q'], { env: envFor(plain) });
    expect(JSON.parse(json.stdout)).toEqual(
      reference
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    );
    const file = path.join(dir, 'export.jsonl.gz');
    const r = await runSwapx(['swaps', ...range, '-o', file, '-q'], { env: envFor(plain) });
    expect(r.code).toBe(0);
    expect(gunzipSync(fs.readFileSync(file)).toString()).toBe(reference);
    expect(fs.existsSync(`${file}.partial`)).toBe(false);
    expect(fs.existsSync(`${file}.partial.manifest.json`)).toBe(false);
  });

  it('--fields picks and orders columns', async () => {
    const r = await runSwapx(['swaps', ...range, '--csv', '--fields', 'sourceTransaction,id', '-q'], { env: envFor(plain) });
    const first = JSON.parse(reference.split('\n')[0]!) as Swap;
    expect(r.stdout.split('\n').slice(0, 2)).toEqual(['sourceTransaction,id', `${first.sourceTransaction},${first.id}`]);
  });

  it('prints a summary on stderr', async () => {
    const r = await runSwapx(['swaps', ...range, '--jsonl'], { env: envFor(plain) });
    const count = reference.trimEnd().split('\n').length;
    expect(r.stderr).toContain(`Exported ${count.toLocaleString('en-US')} swaps to stdout\n`);
    expect(r.stderr).toContain(`  range       ${FROM} → ${TO}\n`);
    expect(r.stderr).toContain('  filter      Withdrawn (server default)\n');
    expect(r.stderr).toContain('  windows     6/6\n');
    expect(r.stderr).toMatch(/ {2}duplicates {2}\d+ dropped \(window edges\)\n/);
  });

  it('--filter changes which time the range applies to', async () => {
    const r = await runSwapx(['swaps', ...range, '--filter', 'updated', '--jsonl', '-q', '-v'], { env: envFor(plain) });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Filter=Updated');
    expect(r.stdout).not.toBe(reference);
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Swap);
    expect(rows.every((s) => s.updatedAt >= '2026-11-02T00:00:00' && Date.parse(s.updatedAt) < Date.parse(TO))).toBe(true);
  });
});

describe('swapx swaps: plan', () => {
  it('--dry-run prints the plan and sends no request', async () => {
    const before = plain.stats().requests;
    const r = await runSwapx(['swaps', '--from', '2026-11-01', '--to', '2026-11-08', '--filter', 'Completed', '--dry-run', '--concurrency', '8'], {
      env: envFor(plain),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'range        2026-11-01T00:00:00Z → 2026-11-08T00:00:00Z (UTC, end excluded)',
        'filter       Completed',
        'window       30m',
        'windows      336',
        'requests     336 (more if windows are retried or split)',
        'concurrency  8',
        'first        2026-11-01T00:00:00Z → 2026-11-01T00:30:00Z',
        'last         2026-11-07T23:30:00Z → 2026-11-08T00:00:00Z',
        '',
      ].join('\n'),
    );
    expect(plain.stats().requests).toBe(before);
  });
});

describe('swapx swaps: files, resume and signals', () => {
  it('does not overwrite an existing file without --force', async () => {
    const file = path.join(dir, 'exists.csv');
    fs.writeFileSync(file, 'keep me');
    const r = await runSwapx(['swaps', ...range, '-o', file], { env: envFor(plain) });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`swapx: error: ${file} exists; add --force to overwrite it\n`);
    expect(fs.readFileSync(file, 'utf8')).toBe('keep me');
    const forced = await runSwapx(['swaps', ...range, '-o', file, '--force', '-q'], { env: envFor(plain) });
    expect(forced.code).toBe(0);
    expect(fs.readFileSync(file, 'utf8').split('\n')[0]).toBe(LIST_SWAP_FIELDS.join(','));
  });

  it('a failure before the first window leaves no .partial and no manifest, and names the window', async () => {
    const broken = await startSandbox({ port: 0, ...DATA, faultRate: 1, retryAfterSeconds: 0 });
    try {
      const file = path.join(dir, 'failed.jsonl');
      const r = await runSwapx(['swaps', ...range, '--retries', '1', '--concurrency', '1', '-o', file], { env: envFor(broken) });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^swapx: error: window ${FROM} → 2026-11-02T00:30:00Z failed: [^;\n]+\n$`));
      expect(fs.readdirSync(dir).filter((name) => name.startsWith('failed.jsonl'))).toEqual([]);
    } finally {
      await broken.close();
    }
  });

  it('a wrong base URL leaves nothing behind, so the fixed one starts without --force', async () => {
    const file = path.join(dir, 'wrong-url.jsonl');
    const wrong = await runSwapx(['swaps', ...range, '-o', file, '--base-url', `${plain.url}/nope`, '-q'], { env: envFor(plain) });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^swapx: error: window 2026-11-02T00:00:00Z → 2026-11-02T00:30:00Z failed: not found: .+\n$/);
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('wrong-url.jsonl'))).toEqual([]);
    const fixed = await runSwapx(['swaps', ...range, '-o', file, '-q'], { env: envFor(plain) });
    expect([fixed.code, fixed.stderr]).toEqual([0, '']);
    expect(fs.readFileSync(file, 'utf8')).toBe(reference);
  });

  it('-o into a directory that does not exist names the file as given, not its .partial', async () => {
    const file = path.join(dir, 'nodir', 'x.csv');
    const r = await runSwapx(['swaps', ...range, '-o', file], { env: envFor(plain) });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`swapx: error: no such file or directory: ${file}\n`);
  });

  it('a symbolic link planted at FILE.partial is not written through: exit 1, the file it names untouched', async () => {
    const victim = path.join(dir, 'victim.txt');
    fs.writeFileSync(victim, 'keep me\n');
    const file = path.join(dir, 'linked.csv');
    fs.symlinkSync(victim, `${file}.partial`);
    const r = await runSwapx(['swaps', ...range, '-o', file], { env: envFor(plain) });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`swapx: error: a symbolic link where swapx makes its own file, not followed: ${file}.partial\n`);
    expect(fs.readFileSync(victim, 'utf8')).toBe('keep me\n');
    expect(fs.existsSync(file)).toBe(false);
  });

  it('--resume of a finished export is a success that keeps the file', async () => {
    const file = path.join(dir, 'finished.jsonl');
    expect((await runSwapx(['swaps', ...range, '-o', file, '-q'], { env: envFor(plain) })).code).toBe(0);
    fs.appendFileSync(file, 'marker\n');
    const before = plain.stats().requests;
    const again = await runSwapx(['swaps', ...range, '-o', file, '--resume'], { env: envFor(plain) });
    expect([again.code, again.stdout, again.stderr]).toEqual([0, '', `${file} is complete already: nothing to resume (add --force to export it again)\n`]);
    expect(fs.readFileSync(file, 'utf8')).toBe(`${reference}marker\n`);
    expect(plain.stats().requests).toBe(before);
  });
});

describe('swapx swaps: resuming', () => {
  it('refuses to resume an export of a different query, printing the command that resumes it', async () => {
    const file = path.join(dir, 'other.jsonl');
    const saved = await interrupted(envFor(slow), ['swaps', ...range, '--window', '5m', '--concurrency', '1', '-o', file], file, 1);
    const r = await runSwapx(['swaps', ...range, '--filter', 'Completed', '-o', file, '--resume'], { env: envFor(slow) });
    const command = `swapx swaps --from ${FROM} --to ${TO} --window 5m -o ${file} --resume`;
    expect([r.code, r.stderr]).toEqual([
      2,
      `swapx: error: the unfinished export to ${file} is of a different query (filter was null, now "Completed"; --window (ms) was 300000, now 1800000); resume it with: ${command} — or add --force to start over\n`,
    ]);
    const pasted = await runSwapx([...command.split(' ').slice(1), '-q'], { env: envFor(slow) });
    expect([pasted.code, pasted.stderr]).toEqual([0, '']);
    expect(saved.windowsTotal).toBe(36);
    expect(fs.readFileSync(file, 'utf8')).toBe(reference);
  });

  it('--last continues its own saved range with --resume, and the printed resume command works when pasted', async () => {
    const file = path.join(dir, 'last.jsonl');
    const started = Date.parse(TO);
    const later = started + 3_600_000;
    const saved = await interrupted(envFor(slow), ['swaps', '--last', '3h', '--window', '5m', '--concurrency', '1', '-o', file], file, 1, started);
    // A plain rerun an hour later: --last 3h now means another range, and the printed command is the saved one.
    const plainRerun = await runSwapx(['swaps', '--last', '3h', '--window', '5m', '-o', file], { env: envFor(slow), now: later });
    const command = `swapx swaps --from ${FROM} --to ${TO} --window 5m -o ${file} --resume`;
    expect([plainRerun.code, plainRerun.stderr]).toEqual([
      2,
      `swapx: error: an unfinished export to ${file} exists (${saved.windowsDone}/36 windows done); resume it with: ${command} — or add --force to start over\n`,
    ]);
    const resumed = await runSwapx(['swaps', '--last', '3h', '--window', '5m', '-o', file, '--resume'], { env: envFor(slow), now: later });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr.split('\n')[0]).toBe(
      `Resuming: ${saved.windowsDone}/36 windows already done, of its own range ${FROM} → ${TO} (not the one the command now means)`,
    );
    expect(resumed.stderr).toContain(`  range       ${FROM} → ${TO}\n`);
    expect(fs.readFileSync(file, 'utf8')).toBe(reference);
  });

  it('the base URL is not part of the query: an export resumes from another address of the same API, with a warning', async () => {
    const file = path.join(dir, 'moved.jsonl');
    const saved = await interrupted(envFor(slow), ['swaps', ...range, '--window', '5m', '--concurrency', '1', '-o', file], file, 1);
    const r = await runSwapx(['swaps', ...range, '--window', '5m', '-o', file, '--resume', '--base-url', plain.url], { env: envFor(slow) });
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n').slice(0, 2)).toEqual([
      `Resuming: ${saved.windowsDone}/36 windows already done`,
      `warning: the windows already done came from ${slow.url}; the rest comes from ${plain.url}`,
    ]);
    expect(fs.readFileSync(file, 'utf8')).toBe(reference);
  });
  it('Ctrl-C before the first window leaves nothing behind and prints no resume command', async () => {
    const file = path.join(dir, 'stopped-early.jsonl');
    const controller = new AbortController();
    controller.abort();
    const r = await runSwapx(['swaps', ...range, '-o', file], { env: envFor(plain), signal: controller.signal });
    expect([r.code, r.stdout, r.stderr]).toEqual([130, '', 'swapx: interrupted\n']);
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('stopped-early.jsonl'))).toEqual([]);
  });

  it('the resume command keeps the global options the run was given', async () => {
    const file = path.join(dir, 'globals.jsonl');
    const saved = await interrupted(envFor(slow), ['swaps', ...range, '--window', '5m', '--concurrency', '1', '--base-url', slow.url, '-o', file], file, 1);
    const r = await runSwapx(['swaps', ...range, '--base-url', slow.url, '-o', file], { env: envFor(plain) });
    const command = `swapx --base-url ${slow.url} swaps --from ${FROM} --to ${TO} --window 5m -o ${file} --resume`;
    expect([r.code, r.stderr]).toEqual([
      2,
      `swapx: error: an unfinished export to ${file} exists (${saved.windowsDone}/36 windows done); resume it with: ${command} — or add --force to start over\n`,
    ]);
    const pasted = await runSwapx([...command.split(' ').slice(1), '-q'], { env: envFor(plain) });
    expect([pasted.code, pasted.stderr]).toEqual([0, '']);
    expect(fs.readFileSync(file, 'utf8')).toBe(reference);
  });
});

describe('swapx swaps: the clock', () => {
  it('a --to in the future stops at now and says so, in --dry-run too', async () => {
    const now = Date.parse('2026-11-02T01:00:00Z');
    const dry = await runSwapx(['swaps', '--from', FROM, '--to', '2026-11-03', '--dry-run'], { env: envFor(plain), now });
    expect(dry.code).toBe(0);
    expect(dry.stderr).toBe('warning: --to 2026-11-03T00:00:00Z is in the future: the export stops at now (2026-11-02T01:00:00Z)\n');
    expect(dry.stdout.split('\n').slice(0, 4)).toEqual([
      'range        2026-11-02T00:00:00Z → 2026-11-02T01:00:00Z (UTC, end excluded)',
      'filter       Withdrawn (server default)',
      'window       30m',
      'windows      2',
    ]);
    const before = plain.stats().requests;
    const r = await runSwapx(['swaps', '--from', FROM, '--to', '2026-11-03', '--jsonl'], { env: envFor(plain), now });
    expect(r.code).toBe(0);
    expect(plain.stats().requests - before).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('warning: --to 2026-11-03T00:00:00Z is in the future: the export stops at now (2026-11-02T01:00:00Z)');
    expect(r.stdout).toBe(
      reference
        .split('\n')
        .filter((line) => line !== '' && Date.parse((JSON.parse(line) as Swap).withdrawnAt) < now)
        .map((line) => `${line}\n`)
        .join(''),
    );
  });
});

/** `swapx swaps --resume`: what is on disk between runs must never turn into wrong bytes. */
describe('swapx swaps --resume: a partial file shorter than its manifest says', () => {
  it('never pads the export with NUL bytes: it refuses (exit 2) or fetches again, and the file ends as an uninterrupted run', async () => {
    const file = path.join(dir, 'short.jsonl');
    const args = ['swaps', ...range, '--window', '5m', '--concurrency', '1', '-o', file];
    const saved = await interrupted(envFor(slow), args, file, 2);
    expect(saved.bytes).toBeGreaterThan(0);
    // The partial file lost its tail (copied back from a backup, a disk that lost unsynced pages, an editor): truncate
    // then extends it back to the manifest's length with zeros.
    fs.truncateSync(`${file}.partial`, 10);
    const r = await runSwapx([...args, '--resume', '-q'], { env: envFor(slow) });
    const written = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    expect(written).not.toContain('\u0000');
    if (r.code === 0) expect(written).toBe(reference);
    else expect([r.code, fs.existsSync(file)]).toEqual([2, false]);
  });
});

/**
 * `swapx swaps` took no lock on -o FILE (sync does). A second `--resume` of the same export while the
 * first still runs (two cron runs overlapping, a user re-running the printed command) appends to the same .partial at
 * the same offsets; whichever finishes second fails at the rename and then claims its windows are "saved in
 * FILE.partial", a file that no longer exists. (With data that changed between the two runs, the offsets would differ
 * and the file would be corrupt.)
 */
describe('swapx swaps: two runs on one -o FILE', () => {
  it('the second is refused up front, and no run points at a .partial that does not exist', async () => {
    const file = path.join(dir, 'twice.jsonl');
    const args = ['swaps', ...range, '--window', '5m', '--concurrency', '1', '-o', file, '--resume'];
    const first = runSwapx(args, { env: envFor(slow) });
    const manifest = `${file}.partial.manifest.json`;
    for (let i = 0; i < 1000; i += 1) {
      const m = fs.existsSync(manifest) ? (JSON.parse(fs.readFileSync(manifest, 'utf8') || '{}') as { windowsDone?: number }) : {};
      if ((m.windowsDone ?? 0) >= 2) break;
      await sleep(10);
    }
    const second = await runSwapx(args, { env: envFor(slow) });
    const one = await first;
    // It was: the second resumed the first's .partial while it was being written ("Resuming: 7/36 windows already
    // done"), and whichever finished last exited 1 claiming windows "saved in FILE.partial", though none existed.
    expect(second.stderr).not.toMatch(/^Resuming: /);
    expect(second.code).not.toBe(0);
    expect(one.code).toBe(0);
    expect(`${one.stderr}${second.stderr}`).not.toMatch(/windows saved in /);
    expect(fs.readFileSync(file, 'utf8')).toBe(reference);
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('twice.jsonl'))).toEqual(['twice.jsonl']);
  });
});

/**
 * `-o` naming something that is not a regular file (a device such as /dev/null, a FIFO, a socket): refused before any
 * request. It used to be "exists; add --force", and with --force the export was renamed over it (as root,
 * `-o /dev/null --force` replaced the device with a regular file).
 */
describe('swapx swaps -o SPECIAL-FILE --force', () => {
  it('never renames the export over a socket (or a FIFO, a device): it is refused before any request, exit 2', async () => {
    // A listening Unix socket stands for any file that is not a regular one (a FIFO or a device needs a binary or root).
    const fifo = path.join(dir, 'pipe.jsonl');
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(fifo, resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const before = plain.stats().requests;
    const r = await runSwapx(['swaps', '--from', '2026-11-02T00:00:00Z', '--to', '2026-11-02T00:10:00Z', '-o', fifo, '--force', '-q'], {
      env: envFor(plain),
    });
    expect(fs.lstatSync(fifo).isSocket()).toBe(true);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^swapx: error: [^\n]+\n$/);
    expect(plain.stats().requests).toBe(before);
  });
});

/**
 * `--resume` of a complete FILE exited 0 "complete already" also when the range was read against the clock. An hourly cron line `swapx swaps --last 1h -o latest.jsonl --resume -q || alert` exports once and then, every
 * hour after, keeps the first hour's swaps and exits 0: a stale export, and no alert.
 */
describe('swapx swaps --last … --resume of a complete FILE', () => {
  it('does not report a file of another range "complete already" with exit 0', async () => {
    const file = path.join(dir, 'latest.jsonl');
    const args = ['swaps', '--last', '1h', '-o', file, '--resume', '-q'];
    const first = await runSwapx(args, { env: envFor(plain), now: Date.parse('2026-11-02T01:00:00Z') });
    expect(first.code).toBe(0);
    const firstHour = fs.readFileSync(file, 'utf8');
    // The run's clock is injected; the file's is the disk's: it was finished at the run's own time.
    const finished = new Date('2026-11-02T01:00:05Z');
    fs.utimesSync(file, finished, finished);
    const twoHoursLater = await runSwapx(args, { env: envFor(plain), now: Date.parse('2026-11-02T03:00:00Z') });
    // It was exit 0, "latest.jsonl is complete already", with the file still holding 00:00-01:00, not 02:00-03:00.
    expect(fs.readFileSync(file, 'utf8')).toBe(firstHour);
    expect(twoHoursLater).toMatchObject({
      code: 2,
      stderr: `swapx: error: ${file} was finished at 2026-11-02T01:00:05Z, before this range ends (2026-11-02T03:00:00Z), so it holds another range; use a file name per range, or add --force to export again\n`,
    });
  });
});
