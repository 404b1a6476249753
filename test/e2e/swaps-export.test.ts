/** The bulk exporter end to end: order, edges, concurrency, faults, resume after SIGKILL, signals, formats. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { LIST_SWAP_FIELDS, type Swap } from '../../src/api/types.js';
import { startSandbox, swapsInWindow, type RunningSandbox } from '../../src/sandbox/index.js';
import { collect, runCli, sandboxEnv, spawnCli, tempDir } from '../helpers/cli.js';

const SEED = 11;
const FROM = '2026-11-02T00:00:00Z';
const TO = '2026-11-02T03:00:00Z';
const range = ['--from', FROM, '--to', TO];

let plain: RunningSandbox;
let slow: RunningSandbox;
let faulty: RunningSandbox;
let dir: string;
let reference: string;

const envFor = (sandbox: RunningSandbox) => sandboxEnv(sandbox.url, path.join(dir, 'cfg'));

function expectedSwaps(from: string, to: string): Swap[] {
  // The API includes both ends; the export owns [from, to).
  return swapsInWindow({ from, to }, { seed: SEED }).filter((s) => Date.parse(s.withdrawnAt) < Date.parse(to));
}

beforeAll(async () => {
  dir = tempDir();
  plain = await startSandbox({ port: 0, seed: SEED });
  slow = await startSandbox({ port: 0, seed: SEED, latencyMs: 40 });
  faulty = await startSandbox({ port: 0, seed: SEED, faultRate: 0.2, retryAfterSeconds: 0 });
  const r = await runCli(['swaps', ...range, '--jsonl', '--concurrency', '1', '-q'], { env: envFor(plain) });
  expect(r.code).toBe(0);
  reference = r.stdout;
});
afterAll(async () => {
  await Promise.all([plain.close(), slow.close(), faulty.close()]);
});

describe('swapx swaps: what is written', () => {
  it('writes every swap of [from, to) once, ordered by withdrawnAt then id', () => {
    const rows = reference.trimEnd().split('\n').map((line) => JSON.parse(line) as Swap);
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
    const onEdge = expectedSwaps(FROM, TO).filter((s) => edges.includes(s.withdrawnAt) || edges.includes(new Date(Date.parse(s.withdrawnAt)).toISOString().replace('.000Z', 'Z')));
    expect(onEdge.length).toBeGreaterThan(0);
    for (const swap of onEdge) expect(reference.split(`"id":"${swap.id}"`).length - 1).toBe(1);
  });

  it('is byte-identical at concurrency 1 and 16 under random latency', async () => {
    const r = await runCli(['swaps', ...range, '--jsonl', '--concurrency', '16', '--window', '7m', '-q'], { env: envFor(slow) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(reference);
  });

  it('is byte-identical through --fault-rate 0.2, and counts the retries', async () => {
    const r = await runCli(['swaps', ...range, '--jsonl', '--concurrency', '4', '--retries', '10'], { env: envFor(faulty) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(reference);
    const retries = Number(/retries\s+(\d+)/.exec(r.stderr)?.[1]);
    expect(retries).toBeGreaterThan(0);
  });

  it('CSV: header in spec order without balanceChanges, every field read back by a CSV parser', async () => {
    const r = await runCli(['swaps', ...range, '--csv', '-q'], { env: envFor(plain) });
    const [header] = r.stdout.split('\n');
    expect(header).toBe(LIST_SWAP_FIELDS.join(','));
    const rows = parse(r.stdout, { columns: true }) as Record<string, string>[];
    const json = reference.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows.length).toBe(json.length);
    rows.forEach((row, i) => {
      for (const field of LIST_SWAP_FIELDS) {
        const value = json[i]![field];
        const cell = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
        expect(row[field]).toBe(cell);
      }
    });
  });

  it('JSON is one array; -o FILE.jsonl.gz round-trips through gunzip', async () => {
    const json = await runCli(['swaps', ...range, '--json', '-q'], { env: envFor(plain) });
    expect(JSON.parse(json.stdout)).toEqual(reference.trimEnd().split('\n').map((l) => JSON.parse(l)));
    const file = path.join(dir, 'export.jsonl.gz');
    const r = await runCli(['swaps', ...range, '-o', file, '-q'], { env: envFor(plain) });
    expect(r.code).toBe(0);
    expect(gunzipSync(fs.readFileSync(file)).toString()).toBe(reference);
    expect(fs.existsSync(`${file}.partial`)).toBe(false);
    expect(fs.existsSync(`${file}.partial.manifest.json`)).toBe(false);
  });

  it('--fields picks and orders columns', async () => {
    const r = await runCli(['swaps', ...range, '--csv', '--fields', 'sourceTransaction,id', '-q'], { env: envFor(plain) });
    const first = JSON.parse(reference.split('\n')[0]!) as Swap;
    expect(r.stdout.split('\n').slice(0, 2)).toEqual(['sourceTransaction,id', `${first.sourceTransaction},${first.id}`]);
  });

  it('prints a summary on stderr', async () => {
    const r = await runCli(['swaps', ...range, '--jsonl'], { env: envFor(plain) });
    const count = reference.trimEnd().split('\n').length;
    expect(r.stderr).toContain(`Exported ${count.toLocaleString('en-US')} swaps to stdout\n`);
    expect(r.stderr).toContain(`  range       ${FROM} → ${TO}\n`);
    expect(r.stderr).toContain('  filter      Withdrawn (server default)\n');
    expect(r.stderr).toContain('  windows     6/6\n');
    expect(r.stderr).toMatch(/ {2}duplicates {2}\d+ dropped \(window edges\)\n/);
  });

  it('--filter changes which time the range applies to', async () => {
    const r = await runCli(['swaps', ...range, '--filter', 'updated', '--jsonl', '-q', '-v'], { env: envFor(plain) });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Filter=Updated');
    expect(r.stdout).not.toBe(reference);
    const rows = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Swap);
    expect(rows.every((s) => s.updatedAt >= '2026-11-02T00:00:00' && Date.parse(s.updatedAt) < Date.parse(TO))).toBe(true);
  });
});

describe('swapx swaps: plan', () => {
  it('--dry-run prints the plan and sends no request', async () => {
    const before = plain.stats().requests;
    const r = await runCli(['swaps', '--from', '2026-11-01', '--to', '2026-11-08', '--filter', 'Completed', '--dry-run', '--concurrency', '8'], { env: envFor(plain) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'range        2026-11-01T00:00:00Z → 2026-11-08T00:00:00Z (UTC, end excluded)',
        'filter       Completed',
        'window       30 min',
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
    const r = await runCli(['swaps', ...range, '-o', file], { env: envFor(plain) });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`swapx: error: ${file} exists; add --force to overwrite it\n`);
    expect(fs.readFileSync(file, 'utf8')).toBe('keep me');
    const forced = await runCli(['swaps', ...range, '-o', file, '--force', '-q'], { env: envFor(plain) });
    expect(forced.code).toBe(0);
    expect(fs.readFileSync(file, 'utf8').split('\n')[0]).toBe(LIST_SWAP_FIELDS.join(','));
  });

  // Checkpoints come at most every 250 ms: one window at a time at 40 ms latency gives several.
  it.each([1, 8, 20])('resumes after SIGKILL (a checkpoint of %i+ windows) to the same bytes as an uninterrupted run', async (afterWindows) => {
    const file = path.join(dir, `killed-${afterWindows}.jsonl`);
    const args = ['swaps', ...range, '--window', '5m', '--concurrency', '1', '-o', file];
    const child = spawnCli(args, { env: envFor(slow) });
    const done = collect(child);
    const manifest = `${file}.partial.manifest.json`;
    for (let i = 0; i < 400; i += 1) {
      const m = fs.existsSync(manifest) ? (JSON.parse(fs.readFileSync(manifest, 'utf8') || '{}') as { windowsDone?: number }) : {};
      if ((m.windowsDone ?? 0) >= afterWindows) break;
      await sleep(10);
    }
    child.kill('SIGKILL');
    const killed = await done;
    expect(killed.signal).toBe('SIGKILL');
    expect(fs.existsSync(file)).toBe(false);
    // Without --resume: the exact command that resumes it.
    const refused = await runCli(args, { env: envFor(slow) });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`resume it with: swapx swaps --from ${FROM} --to ${TO} --window 300s -o ${file} --resume`);
    const resumed = await runCli([...args, '--resume'], { env: envFor(slow) });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(/^Resuming: \d+\/36 windows already done\n/);
    expect(fs.readFileSync(file, 'utf8')).toBe(reference);
  });

  it('refuses to resume an export of a different query', async () => {
    const file = path.join(dir, 'other.jsonl');
    const child = spawnCli(['swaps', ...range, '--concurrency', '1', '-o', file], { env: envFor(slow) });
    const done = collect(child);
    while (!fs.existsSync(`${file}.partial.manifest.json`)) await sleep(10);
    child.kill('SIGKILL');
    await done;
    const r = await runCli(['swaps', ...range, '--filter', 'Completed', '-o', file, '--resume'], { env: envFor(slow) });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `swapx: error: the unfinished export to ${file} is of a different query (filter was null, now "Completed"); repeat its query to resume, or add --force to start over\n`,
    );
  });

  it('SIGINT stops, keeps what is complete, exits 130 with the resume command', async () => {
    const file = path.join(dir, 'interrupted.csv');
    const child = spawnCli(['swaps', ...range, '--window', '5m', '--concurrency', '1', '-o', file], { env: envFor(slow) });
    const done = collect(child);
    while (!fs.existsSync(`${file}.partial.manifest.json`)) await sleep(10);
    await sleep(150);
    child.kill('SIGINT');
    const r = await done;
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(new RegExp(`swapx: interrupted; \\d+/36 windows saved in ${file}\\.partial; resume with: swapx swaps --from ${FROM} --to ${TO} --window 300s -o ${file} --resume\\n$`));
    const resumed = await runCli(['swaps', ...range, '--window', '5m', '-o', file, '--resume', '-q'], { env: envFor(slow) });
    expect(resumed.code).toBe(0);
    const csv = await runCli(['swaps', ...range, '--csv', '-q'], { env: envFor(plain) });
    expect(fs.readFileSync(file, 'utf8')).toBe(csv.stdout);
  });

  it('a window that keeps failing stops the export with exit 1, naming the window and the resume command', async () => {
    const broken = await startSandbox({ port: 0, seed: SEED, faultRate: 1, retryAfterSeconds: 0 });
    try {
      const file = path.join(dir, 'failed.jsonl');
      const r = await runCli(['swaps', ...range, '--retries', '1', '--concurrency', '1', '-o', file], { env: envFor(broken) });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^swapx: error: window ${FROM} → 2026-11-02T00:30:00Z failed: .+; 0/6 windows saved in ${file}\\.partial; resume with: swapx swaps --from ${FROM} --to ${TO} -o ${file} --resume\\n$`));
      expect(fs.existsSync(file)).toBe(false);
    } finally {
      await broken.close();
    }
  });
});
