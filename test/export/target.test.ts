/**
 * decideTarget, each way out: a new export, --force, a complete FILE without a manifest (finished before or
 * after its range ends), an unfinished one refused or resumed, its own range for a relative run, a partial file
 * missing or shorter than its manifest counts, and a Parquet export's row-group metadata.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { type ExportQuery, type Manifest, queryFingerprint, queryOf } from '../../src/export/manifest.js';
import { TargetRefusedError } from '../../src/export/errors.js';
import { decideTarget } from '../../src/export/target.js';
import { type ExportPlan, planExport } from '../../src/export/plan.js';
import { tempDir } from '../helpers/cli.js';

const NOW = Date.parse('2026-11-20T00:00:00Z');
const BASE = 'https://api.example';
const FROM = Date.parse('2026-11-02T00:00:00Z');
const TO = Date.parse('2026-11-02T06:00:00Z');

function plan(file: string, overrides: Partial<Parameters<typeof planExport>[0]> = {}): ExportPlan {
  return planExport({
    from: FROM,
    to: TO,
    filter: 'Completed',
    output: { file, format: 'jsonl', gzip: false, fields: ['id', 'completedAt'], excelSafe: false },
    now: NOW,
    ...overrides,
  });
}

function manifestOf(q: ExportQuery, extra: Partial<Manifest> = {}): Manifest {
  return {
    version: 1,
    fingerprint: queryFingerprint(q),
    query: q,
    windowsTotal: 12,
    windowsDone: 2,
    bytes: 10,
    swaps: 3,
    dropped: 0,
    updatedAt: '2026-11-19T00:00:00Z',
    ...extra,
  };
}

const fileIn = () => path.join(tempDir('swapx-target-'), 'out.jsonl');

/** FILE with its manifest (of `p`'s query unless given) and a partial file of `bytes` bytes (none: no partial file). */
/** `extra.parquet`: the format state as the swapx before formats were modules named it. */
function unfinished(p: (file: string) => ExportPlan, options: { bytes?: number; extra?: Partial<Manifest> & { parquet?: string }; query?: ExportQuery } = {}) {
  const file = fileIn();
  const q = options.query ?? queryOf(p(file), BASE);
  if (options.bytes !== undefined) fs.writeFileSync(`${file}.partial`, 'x'.repeat(options.bytes));
  const manifest = manifestOf(q, options.extra);
  fs.writeFileSync(`${file}.partial.manifest.json`, JSON.stringify(manifest));
  return { file, manifest };
}

const resume = { resume: true, force: false };
const fresh = { resume: false, force: false };

async function usage(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UsageError);
  return (error as Error).message;
}

describe('decideTarget without a manifest', () => {
  it('starts when nothing is there, with or without --resume', async () => {
    const p = plan(fileIn());
    expect(await decideTarget(p, BASE, fresh)).toEqual({ action: 'start', plan: p });
    expect(await decideTarget(p, BASE, resume)).toEqual({ action: 'start', plan: p });
  });

  it('refuses a file that is there, and starts over it with --force', async () => {
    const file = fileIn();
    fs.writeFileSync(file, '{}\n');
    const p = plan(file);
    expect(await decideTarget(p, BASE, fresh)).toEqual({ action: 'refuse', reason: 'exists' });
    expect(await decideTarget(p, BASE, { resume: false, force: true })).toEqual({ action: 'start', plan: p });
    expect(await decideTarget(p, BASE, { resume: true, force: true })).toEqual({ action: 'start', plan: p });
  });

  it('--resume of a file finished when its range ended or later: complete', async () => {
    const file = fileIn();
    fs.writeFileSync(file, '{}\n');
    fs.utimesSync(file, TO / 1000, TO / 1000);
    expect(await decideTarget(plan(file), BASE, resume)).toEqual({ action: 'complete' });
    fs.utimesSync(file, NOW / 1000, NOW / 1000);
    expect(await decideTarget(plan(file), BASE, resume)).toEqual({ action: 'complete' });
  });

  it('--resume of a file finished before its range ends: refused, it holds another range', async () => {
    const file = fileIn();
    fs.writeFileSync(file, '{}\n');
    fs.utimesSync(file, (TO - 1000) / 1000, (TO - 1000) / 1000);
    const error = await decideTarget(plan(file), BASE, resume).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetRefusedError);
    expect((error as TargetRefusedError).refusal).toEqual({ reason: 'other-range', written: TO - 1000, to: TO });
  });
});

describe('decideTarget with a manifest', () => {
  it('without --resume: refused as unfinished, with the saved plan and what differs', async () => {
    const { file, manifest } = unfinished((f) => plan(f), { bytes: 10 });
    const p = plan(file, { filter: 'Updated' });
    expect(await decideTarget(p, BASE, fresh)).toEqual({
      action: 'refuse',
      reason: 'unfinished',
      saved: plan(file),
      manifest,
      differences: [{ key: 'filter', was: 'Completed', now: 'Updated' }],
    });
  });

  it('--force starts over it without reading it', async () => {
    const file = fileIn();
    fs.writeFileSync(`${file}.partial.manifest.json`, 'not json');
    const p = plan(file);
    expect(await decideTarget(p, BASE, { resume: true, force: true })).toEqual({ action: 'start', plan: p });
  });

  it('--resume of another query: refused as different', async () => {
    const { file, manifest } = unfinished((f) => plan(f), { bytes: 10 });
    const p = plan(file, { windowMs: 600_000 });
    expect(await decideTarget(p, BASE, resume)).toEqual({
      action: 'refuse',
      reason: 'different',
      saved: plan(file),
      manifest,
      differences: [{ key: 'windowMs', was: 1_800_000, now: 600_000 }],
    });
  });

  it('--resume of the same query resumes this plan; the same base URL is not named', async () => {
    const { file, manifest } = unfinished((f) => plan(f), { bytes: 10 });
    const p = plan(file);
    expect(await decideTarget(p, BASE, resume)).toEqual({ action: 'resume', plan: p, manifest, ownRange: false, baseUrlWas: undefined });
    expect(await decideTarget(p, 'https://other.example', resume)).toEqual({
      action: 'resume',
      plan: p,
      manifest,
      ownRange: false,
      baseUrlWas: BASE,
    });
  });

  it('a relative run with the same range is not its own range', async () => {
    const { file, manifest } = unfinished((f) => plan(f), { bytes: 10 });
    const p = plan(file, { relative: true });
    expect(await decideTarget(p, BASE, resume)).toEqual({ action: 'resume', plan: p, manifest, ownRange: false, baseUrlWas: undefined });
  });

  it('a relative run with the range moved resumes the saved range; with no partial file it starts that range', async () => {
    const moved = (f: string) => plan(f, { from: FROM + 3_600_000, to: TO + 3_600_000, relative: true });
    const { file, manifest } = unfinished((f) => plan(f), { bytes: 10 });
    expect(await decideTarget(moved(file), BASE, resume)).toEqual({ action: 'resume', plan: plan(file), manifest, ownRange: true, baseUrlWas: undefined });
    const bare = unfinished((f) => plan(f));
    expect(await decideTarget(moved(bare.file), BASE, resume)).toEqual({ action: 'start', plan: plan(bare.file) });
  });

  it('with no partial file: starts this plan', async () => {
    const { file } = unfinished((f) => plan(f));
    const p = plan(file);
    expect(await decideTarget(p, BASE, resume)).toEqual({ action: 'start', plan: p });
  });

  it('a partial file shorter than the manifest counts is refused; as long or longer resumes', async () => {
    const short = unfinished((f) => plan(f), { bytes: 9 });
    expect(await usage(decideTarget(plan(short.file), BASE, resume))).toBe(
      `${short.file}.partial holds 9 bytes, fewer than the 10 its manifest counts, so the export cannot be resumed`,
    );
    for (const bytes of [10, 11]) {
      const { file } = unfinished((f) => plan(f), { bytes });
      expect(await decideTarget(plan(file), BASE, resume)).toMatchObject({ action: 'resume' });
    }
  });

  it.each([
    ['formatState', (count: string) => ({ formatState: count })],
    ['parquet, as the swapx before formats were modules wrote it', (count: string) => ({ parquet: count })],
  ])('a Parquet export (its state in %s) resumes only with the metadata of every row group it counts', async (_, state) => {
    const parquet = (f: string) => plan(f, { output: { file: f, format: 'parquet', gzip: false, fields: ['id', 'completedAt'], excelSafe: false } });
    const missing = unfinished(parquet, { bytes: 10, extra: state('2') });
    expect(await usage(decideTarget(parquet(missing.file), BASE, resume))).toBe(
      `${missing.file}.partial.rowgroups does not hold the metadata of the 2 row group(s) the manifest counts, so the export cannot be resumed`,
    );
    const kept = unfinished(parquet, { bytes: 10, extra: state('2') });
    fs.writeFileSync(`${kept.file}.partial.rowgroups`, '{"a":1}\n{"a":2}\n');
    expect(await decideTarget(parquet(kept.file), BASE, resume)).toMatchObject({ action: 'resume', manifest: { formatState: '2' } });
    const none = unfinished(parquet, { bytes: 10, extra: state('0') });
    expect(await decideTarget(parquet(none.file), BASE, resume)).toMatchObject({ action: 'resume' });
  });
});
