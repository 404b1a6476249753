/** Part files: written whole under their final name, read back (jsonl/csv, gz or not) for crash recovery. */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { SWAP_FIELDS } from '../../src/api/types.js';
import { createEncoder } from '../../src/output/encode.js';
import { CsvRecords, readPartRows } from '../../src/sync/part-ids.js';
import { PART_RE, PartWriter, runStamp, utcDate } from '../../src/sync/partitions.js';
import { recover } from '../../src/sync/recovery.js';
import { newState, type SyncFormat } from '../../src/sync/state.js';
import { tempDir } from '../helpers/cli.js';

const row = (id: string, completedAt: string, bridge = 'x') => ({ id, completedAt, bridge, sourceOtherProtocolAddresses: ['a,"b"', 'c\nd'] });

describe('CsvRecords', () => {
  it('reads quoted commas, doubled quotes and line breaks, split anywhere', () => {
    const text = 'id,note\r\n1,"a, ""b""\nc"\n2,plain\n3,""\n4,"end"';
    const expected = [['id', 'note'], ['1', 'a, "b"\nc'], ['2', 'plain'], ['3', ''], ['4', 'end']];
    for (let cut = 0; cut <= text.length; cut += 1) {
      const records: string[][] = [];
      const reader = new CsvRecords((r) => records.push(r));
      reader.push(text.slice(0, cut));
      reader.push(text.slice(cut));
      reader.end();
      expect(records).toEqual(expected);
    }
  });
});

describe('PartWriter and readPartRows', () => {
  const cases: [SyncFormat, boolean][] = [
    ['jsonl', false],
    ['jsonl', true],
    ['csv', false],
    ['csv', true],
  ];
  it.each(cases)('%s gzip=%s: appears only when closed, each CSV part with its header, ids read back', async (format, gzip) => {
    const dir = tempDir('swapx-parts-');
    const fields = format === 'csv' ? ['id', 'bridge', 'completedAt', 'sourceOtherProtocolAddresses'] : [...SWAP_FIELDS];
    const encoder = createEncoder(format, { fields, allFields: SWAP_FIELDS });
    const stamp = runStamp(Date.parse('2026-11-21T10:15:00Z'));
    expect(stamp).toMatch(/^20261121T101500Z-[0-9a-f]{6}$/);
    const writer = new PartWriter(dir, stamp, { format, gzip, encoder });
    await writer.append('2026-11-20', [row('a', '2026-11-20T23:59:59Z')]);
    await writer.append('2026-11-20', [row('b', '2026-11-20T23:59:59.500Z'), row('c', 'not a time')]);
    const partDir = path.join(dir, 'date=2026-11-20');
    // Only a hidden temporary file until closed.
    expect(fs.readdirSync(partDir).every((name) => name.startsWith('.') && name.endsWith('.tmp'))).toBe(true);
    await expect(writer.append('2026-11-21', [row('d', '2026-11-21T00:00:00Z')])).rejects.toThrow(/still open/);
    const relative = await writer.close();
    const ext = `.${format}${gzip ? '.gz' : ''}`;
    expect(relative).toBe(`date=2026-11-20/part-${stamp}${ext}`);
    expect(fs.readdirSync(partDir)).toEqual([`part-${stamp}${ext}`]);
    expect(PART_RE.test(`part-${stamp}${ext}`)).toBe(true);
    const file = path.join(dir, relative!);
    const text = (gzip ? gunzipSync(fs.readFileSync(file)) : fs.readFileSync(file)).toString();
    if (format === 'csv') expect(text.startsWith(`${fields.join(',')}\n`)).toBe(true);
    const rows = await readPartRows(file);
    expect(rows.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(rows[1]!.completedMs).toBe(Date.parse('2026-11-20T23:59:59.500Z'));
    expect(rows[2]!.completedMs).toBeNaN();

    // A second part of the same date in the same step never replaces the first.
    await writer.append('2026-11-20', [row('e', '2026-11-20T01:00:00Z')]);
    expect(await writer.close()).toBe(`date=2026-11-20/part-${stamp}-2${ext}`);
    expect(await writer.close()).toBeUndefined();
  });

  it('discard leaves nothing behind', async () => {
    const dir = tempDir('swapx-parts-');
    const writer = new PartWriter(dir, runStamp(Date.now()), { format: 'jsonl', gzip: false, encoder: createEncoder('jsonl', { fields: SWAP_FIELDS, allFields: SWAP_FIELDS }) });
    await writer.append('2026-11-20', [row('a', '2026-11-20T10:00:00Z')]);
    await writer.discard();
    expect(fs.readdirSync(path.join(dir, 'date=2026-11-20'))).toEqual([]);
    expect(utcDate(Date.parse('2026-11-20T23:59:59.999Z'))).toBe('2026-11-20');
  });
});

describe('recover', () => {
  it('deletes temporary parts and records the ids of parts the state does not list', async () => {
    const dir = tempDir('swapx-recover-');
    const T = Date.parse('2026-11-10T00:00:00Z');
    const state = newState({ baseUrl: 'http://x', filter: 'Completed', format: 'jsonl', fields: [...SWAP_FIELDS], gzip: false }, T);
    state.idsFrom = T + 3_600_000;
    state.cursor = T + 5 * 3_600_000;
    state.ids.add('known', T + 3_600_000);
    const listed = 'date=2026-11-10/part-20261110T050000Z-aaaaaa.jsonl';
    state.parts.push(listed);
    const day = path.join(dir, 'date=2026-11-10');
    fs.mkdirSync(day, { recursive: true });
    fs.mkdirSync(path.join(dir, 'date=2026-11-09'));
    fs.writeFileSync(path.join(dir, listed), `${JSON.stringify(row('known', '2026-11-10T01:00:00Z'))}\n${JSON.stringify(row('ignored-listed', '2026-11-10T01:00:00Z'))}\n`);
    fs.writeFileSync(
      path.join(day, 'part-20261110T060000Z-bbbbbb.jsonl'),
      [row('old', '2026-11-10T00:30:00Z'), row('new1', '2026-11-10T02:00:00Z'), row('new2', '2026-11-10T06:00:00Z')].map((r) => JSON.stringify(r)).join('\n') + '\n',
    );
    fs.writeFileSync(path.join(day, '.part-20261110T070000Z-cccccc.jsonl.123-abcd.tmp'), 'half a row');
    fs.writeFileSync(path.join(dir, 'date=2026-11-09', 'part-20261110T060000Z-bbbbbb.jsonl'), `${JSON.stringify(row('too-old', '2026-11-09T12:00:00Z'))}\n`);
    fs.writeFileSync(path.join(day, 'notes.txt'), 'not a part');
    // The state's temporary files are all leftovers under the lock; a lock attempt's only once its process is gone.
    const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
    fs.writeFileSync(path.join(dir, '..swapx-sync.json.4242-00ff.tmp'), '{');
    fs.writeFileSync(path.join(dir, `.swapx-sync.lock.${dead}-00ff.tmp`), '{}');
    fs.writeFileSync(path.join(dir, `.swapx-sync.lock.${process.ppid}-00ff.tmp`), '{}');

    const recovered = await recover(dir, state);
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('.'))).toEqual([`.swapx-sync.lock.${process.ppid}-00ff.tmp`]);
    expect(recovered).toEqual({ removed: 3, parts: ['date=2026-11-10/part-20261110T060000Z-bbbbbb.jsonl'], ids: 2 });
    expect(state.ids.has('new1') && state.ids.has('new2')).toBe(true);
    expect(state.ids.has('old') || state.ids.has('too-old') || state.ids.has('ignored-listed')).toBe(false);
    expect(state.parts).toContain('date=2026-11-10/part-20261110T060000Z-bbbbbb.jsonl');
    expect(fs.readdirSync(day).sort()).toEqual(['notes.txt', 'part-20261110T050000Z-aaaaaa.jsonl', 'part-20261110T060000Z-bbbbbb.jsonl']);
    expect(await recover(dir, state)).toEqual({ removed: 0, parts: [], ids: 0 });
  });
});
