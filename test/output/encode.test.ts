import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { cellText, createEncoder, encodeAll } from '../../src/output/encode.js';

const all = ['id', 'n', 'tags', 'note'];
const rows = [
  { id: 'a', n: 1.5, tags: [{ type: 'nft', value: 'deposit' }], note: 'say "hi", ok' },
  { id: 'b', n: null, tags: null, note: 'line\nbreak' },
];

describe('encoders', () => {
  it('JSON Lines keeps records as sent', () => {
    expect(encodeAll('jsonl', rows, { fields: all, allFields: all })).toBe(`${JSON.stringify(rows[0])}\n${JSON.stringify(rows[1])}\n`);
  });
  it('JSON is one array, streamed in batches', () => {
    const enc = createEncoder('json', { fields: all, allFields: all });
    const text = enc.header() + enc.batch([rows[0]!], true) + enc.batch([], false) + enc.batch([rows[1]!], false) + enc.footer(true);
    expect(JSON.parse(text)).toEqual(rows);
    expect(encodeAll('json', [], { fields: all, allFields: all })).toBe('[]\n');
  });
  it('--fields picks and orders', () => {
    expect(encodeAll('jsonl', rows, { fields: ['note', 'id'], allFields: all })).toBe(
      '{"note":"say \\"hi\\", ok","id":"a"}\n{"note":"line\\nbreak","id":"b"}\n',
    );
  });
  it('CSV: header, RFC 4180 quoting, null empty, arrays as compact JSON', () => {
    const text = encodeAll('csv', rows, { fields: all, allFields: all });
    expect(text).toBe('id,n,tags,note\na,1.5,"[{""type"":""nft"",""value"":""deposit""}]","say ""hi"", ok"\nb,,,"line\nbreak"\n');
    expect(parse(text, { columns: true })).toEqual([
      { id: 'a', n: '1.5', tags: '[{"type":"nft","value":"deposit"}]', note: 'say "hi", ok' },
      { id: 'b', n: '', tags: '', note: 'line\nbreak' },
    ]);
  });
  it('excel-safe neutralises formula cells only when asked', () => {
    expect(cellText('=SUM(A1)')).toBe('=SUM(A1)');
    expect(cellText('=SUM(A1)', true)).toBe("'=SUM(A1)");
    expect(cellText('+1', true)).toBe("'+1");
    expect(cellText('-3', true)).toBe("'-3");
    expect(cellText('@x', true)).toBe("'@x");
    expect(cellText('0xabc', true)).toBe('0xabc');
    expect(cellText(-3, true)).toBe('-3');
  });
});
