/**
 * `swapx sync` end to end against in-process sandboxes with a fixed clock:
 * two runs in a row, late arrivals, daily partitions, CSV + gzip, and the
 * crash between a part's rename and the state write.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { expectTidy, expectedIds, readParts, readState, sorted, stepLines, syncEnv, writtenIds } from './helpers.js';

const H = 3_600_000;

describe('two runs in a row', () => {
  const data = { seed: 21, swapsPerHour: 300 };
  const NOW = Date.parse('2026-11-10T03:00:00Z');
  const range = ['--since', '2026-11-09T21:00:00Z', '--until', '2026-11-10T03:00:00Z'];
  let sandbox: RunningSandbox;
  let dir: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, ...data, now: () => NOW });
    dir = path.join(tempDir('swapx-sync-'), 'out');
  });
  afterAll(() => sandbox.close());

  it('the first writes every swap once into daily partitions; the second writes nothing', async () => {
    const env = syncEnv(sandbox);
    const first = await runCli(['sync', '--out', dir, ...range, '--summary-json'], { env });
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('');
    const [step] = stepLines(first);
    const expected = expectedIds(data, '2026-11-09T21:00:00Z', '2026-11-10T03:00:00Z', NOW);
    expect(expected.length).toBeGreaterThan(500);
    expect(Object.keys(step!)).toEqual(['event', 'newSwaps', 'lateSwaps', 'cursor', 'windows', 'retries', 'elapsedMs', 'parts', 'complete']);
    expect(step).toMatchObject({ newSwaps: expected.length, lateSwaps: 0, cursor: '2026-11-10T03:00:00Z', windows: 12, retries: 0, complete: true });
    expect(step!.parts.map((p) => p.slice(0, 16))).toEqual(['date=2026-11-09/', 'date=2026-11-10/']);
    const ids = writtenIds(dir);
    expect(ids.length).toBe(expected.length);
    expect(sorted(ids)).toEqual(expected);
    expectTidy(dir);
    // Within a part, rows follow completedAt.
    for (const part of readParts(dir)) {
      const times = part.rows.map((row) => Date.parse(String(row.completedAt)));
      expect(times).toEqual([...times].sort((a, b) => a - b));
    }

    const before = snapshot(dir);
    const stateBefore = readState(dir);
    const second = await runCli(['sync', '--out', dir, ...range.slice(2), '--summary-json'], { env });
    expect(second.code).toBe(0);
    // The re-scan covered the whole range again (it is within --lag) and found nothing unrecorded.
    expect(stepLines(second)).toEqual([expect.objectContaining({ newSwaps: 0, lateSwaps: 0, windows: 12, parts: [], cursor: '2026-11-10T03:00:00Z', complete: true })]);
    expect(snapshot(dir)).toEqual(before);
    const stateAfter = readState(dir);
    expect({ ...stateAfter, updatedAt: 0, rescannedAt: 0 }).toEqual({ ...stateBefore, updatedAt: 0, rescannedAt: 0 });
  });

  it('without --until syncs up to now − 2 min (real clock), in whole seconds', async () => {
    const fresh = path.join(tempDir('swapx-sync-'), 'out');
    const r = await runCli(['sync', '--out', fresh, '--since', '10m'], { env: syncEnv(sandbox) });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^No new swaps; cursor \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z; 1 window, 0 retries, \S+\n$/);
    const cursor = Date.parse(readState(fresh).cursor);
    expect(Math.abs(cursor - (Date.now() - 2 * 60_000))).toBeLessThan(30_000);
    expect(cursor % 1000).toBe(0);
  });

  it('ignores a later --since that differs from the first, with a warning', async () => {
    const env = syncEnv(sandbox);
    const until = ['--until', '2026-11-10T03:00:00Z', '--lag', '0', '-q'];
    const r = await runCli(['sync', '--out', dir, '--since', '2026-11-01', ...until], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `warning: --since ignored: ${dir} syncs from 2026-11-09T21:00:00Z and continues from its cursor 2026-11-10T03:00:00Z (a new start needs a new --out dir)\n`,
    );
    const same = await runCli(['sync', '--out', dir, '--since', '2026-11-09T21:00:00Z', ...until], { env });
    expect(same.code).toBe(0);
    expect(same.stderr).toBe('');
  });
});

describe('late arrivals', () => {
  const data = { seed: 22, swapsPerHour: 240, lateShare: 0.25, lateByMs: 3 * H };
  const T = Date.parse('2026-11-10T01:00:00Z');
  const SINCE = '2026-11-09T20:00:00Z';
  let clock = T;
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, ...data, now: () => clock });
  });
  afterAll(() => sandbox.close());

  it('are picked up by the re-scan, written once, into the partition of their date', async () => {
    const env = syncEnv(sandbox);
    const dir = path.join(tempDir('swapx-sync-'), 'out');
    clock = T;
    const first = await runCli(['sync', '--out', dir, '--since', SINCE, '--until', '2026-11-10T01:00:00Z', '--summary-json'], { env });
    expect(first.code).toBe(0);
    const firstIds = expectedIds(data, SINCE, '2026-11-10T01:00:00Z', T);
    expect(sorted(writtenIds(dir))).toEqual(firstIds);

    clock = T + 4 * H;
    const second = await runCli(['sync', '--out', dir, '--until', '2026-11-10T05:00:00Z', '--summary-json'], { env });
    expect(second.code).toBe(0);
    const late = expectedIds(data, SINCE, '2026-11-10T01:00:00Z', clock).filter((id) => !firstIds.includes(id));
    const fresh = expectedIds(data, '2026-11-10T01:00:00Z', '2026-11-10T05:00:00Z', clock);
    expect(late.length).toBeGreaterThan(20);
    const [step] = stepLines(second);
    expect(step).toMatchObject({ lateSwaps: late.length, newSwaps: fresh.length, cursor: '2026-11-10T05:00:00Z', windows: 18 });
    // Late swaps of Nov 9 went into a new part of date=2026-11-09: old parts are never rewritten.
    const nov9 = step!.parts.filter((p) => p.startsWith('date=2026-11-09/'));
    expect(nov9).toHaveLength(1);
    const nov9Rows = readParts(dir).find((p) => p.relative === nov9[0])!.rows;
    expect(nov9Rows.every((row) => late.includes(String(row.id)))).toBe(true);

    // A third run finds nothing; the whole equals one clean run made at the later clock.
    const third = await runCli(['sync', '--out', dir, '--until', '2026-11-10T05:00:00Z', '--summary-json'], { env });
    expect(stepLines(third)[0]).toMatchObject({ newSwaps: 0, lateSwaps: 0, parts: [] });
    const ids = writtenIds(dir);
    expect(new Set(ids).size).toBe(ids.length);
    const cleanDir = path.join(tempDir('swapx-sync-'), 'clean');
    const clean = await runCli(['sync', '--out', cleanDir, '--since', SINCE, '--until', '2026-11-10T05:00:00Z', '-q'], { env });
    expect(clean.code).toBe(0);
    expect(sorted(ids)).toEqual(sorted(writtenIds(cleanDir)));
    expect(sorted(ids)).toEqual(expectedIds(data, SINCE, '2026-11-10T05:00:00Z', clock));
    expectTidy(dir);
  });

  it('--rescan-every skips the re-scan while recent; the next one starts where the last one ended', async () => {
    const env = syncEnv(sandbox);
    const dir = path.join(tempDir('swapx-sync-'), 'out');
    clock = T;
    await runCli(['sync', '--out', dir, '--since', SINCE, '--until', '2026-11-10T01:00:00Z', '-q'], { env });
    clock = T + 4 * H;
    const skipped = await runCli(['sync', '--out', dir, '--rescan-every', '1h', '--until', '2026-11-10T03:00:00Z', '--summary-json'], { env });
    expect(stepLines(skipped)[0]).toMatchObject({ lateSwaps: 0, windows: 4 });
    expect(readState(dir).rescanBase).toBe('2026-11-10T01:00:00Z');
    const rescanned = await runCli(['sync', '--out', dir, '--until', '2026-11-10T05:00:00Z', '--summary-json'], { env });
    expect(stepLines(rescanned)[0]!.lateSwaps).toBeGreaterThan(20);
    const ids = writtenIds(dir);
    expect(ids.length).toBe(new Set(ids).size);
    expect(sorted(ids)).toEqual(expectedIds(data, SINCE, '2026-11-10T05:00:00Z', clock));
  });

  it('--lag 0 turns the re-scan off', async () => {
    const env = syncEnv(sandbox);
    const dir = path.join(tempDir('swapx-sync-'), 'out');
    clock = T;
    await runCli(['sync', '--out', dir, '--since', SINCE, '--until', '2026-11-10T01:00:00Z', '-q'], { env });
    clock = T + 4 * H;
    const r = await runCli(['sync', '--out', dir, '--lag', '0', '--until', '2026-11-10T02:00:00Z', '--summary-json'], { env });
    expect(stepLines(r)[0]).toMatchObject({ lateSwaps: 0, windows: 2 });
  });
});

describe('CSV, gzip, and a crash between a part and the state', () => {
  const data = { seed: 23, swapsPerHour: 200 };
  const NOW = Date.parse('2026-11-12T00:00:00Z');
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, ...data, now: () => NOW });
  });
  afterAll(() => sandbox.close());

  it('records parts a killed run renamed but did not record, and never writes their swaps again', async () => {
    const env = syncEnv(sandbox);
    const dir = path.join(tempDir('swapx-sync-'), 'out');
    const a = await runCli(['sync', '--out', dir, '--since', '2026-11-10T20:00:00Z', '--until', '2026-11-10T23:00:00Z', '--format', 'csv', '--gzip', '-q'], { env });
    expect(a.code).toBe(0);
    const stateA = fs.readFileSync(path.join(dir, '.swapx-sync.json'));
    // Later runs keep the format of the first.
    const b = await runCli(['sync', '--out', dir, '--until', '2026-11-11T02:00:00Z', '-q'], { env });
    expect(b.code).toBe(0);
    const parts = readParts(dir);
    expect(parts.length).toBe(3);
    for (const part of parts) {
      expect(part.relative).toMatch(/\.csv\.gz$/);
      expect(part.firstLine.startsWith('id,timestamp,depositedAt,')).toBe(true);
    }
    const expected = expectedIds(data, '2026-11-10T20:00:00Z', '2026-11-11T02:00:00Z', NOW);
    expect(sorted(writtenIds(dir))).toEqual(expected);

    // As if run b died after renaming its parts but before writing the state; plus a temporary part it left.
    fs.writeFileSync(path.join(dir, '.swapx-sync.json'), stateA);
    const leftover = path.join(dir, 'date=2026-11-11', '.part-20261111T000000Z-abcdef.csv.gz.99999-abcd.tmp');
    fs.writeFileSync(leftover, 'partial');
    const c = await runCli(['sync', '--out', dir, '--until', '2026-11-11T02:00:00Z', '--summary-json'], { env });
    expect(c.code).toBe(0);
    expect(c.stderr).toMatch(/warning: recorded \d+ swaps of 2 part\(s\) an interrupted run left unrecorded/);
    expect(stepLines(c)[0]).toMatchObject({ newSwaps: 0, lateSwaps: 0, parts: [], cursor: '2026-11-11T02:00:00Z' });
    const ids = writtenIds(dir);
    expect(ids.length).toBe(expected.length);
    expect(sorted(ids)).toEqual(expected);
    expect(fs.existsSync(leftover)).toBe(false);
    expectTidy(dir);
    expect(readState(dir).parts).toHaveLength(3);
  });
});

/** File names, sizes and modification times under dir. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(dir, { recursive: true }).map(String).sort()) {
    if (name === '.swapx-sync.json') continue;
    const stat = fs.statSync(path.join(dir, name));
    out[name] = stat.isDirectory() ? 'dir' : `${stat.size}:${stat.mtimeMs}`;
  }
  return out;
}
