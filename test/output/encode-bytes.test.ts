/** The encoders byte by byte: items, batches and their separators, raw pass-through, projection and CSV cells. */
import { describe, expect, it } from 'vitest';
import { cellText, createEncoder, encodeAll, linesEncoder } from '../../src/output/encode.js';

const all = ['id', 'n', 'note'];
const a = { id: 'a', n: 1, note: 'é✓' };
const b = { id: 'b', n: 2, note: null };

describe('JSON Lines', () => {
  const enc = createEncoder('jsonl', { fields: all, allFields: all });

  it('no header, between or footer; each item a line', () => {
    expect([enc.header(), enc.between, enc.footer(true), enc.footer(false)]).toEqual(['', '', '', '']);
    expect(enc.batch([a, b], true)).toBe('{"id":"a","n":1,"note":"é✓"}\n{"id":"b","n":2,"note":null}\n');
    expect(enc.batch([a], false)).toBe('{"id":"a","n":1,"note":"é✓"}\n');
    expect(enc.batch([], true)).toBe('');
  });

  it('every field: the bytes as sent are the item, as they are; without them, the record as JSON', () => {
    const raw = Buffer.from('{"id":"a","n":1,"note":"é✓"}');
    expect(enc.item(a, raw)).toBe(raw);
    expect(enc.item(a)).toBe('{"id":"a","n":1,"note":"é✓"}');
    // Every field is no projection: the record passes through whole.
    expect(enc.item({ ...a, extra: true })).toBe('{"id":"a","n":1,"note":"é✓","extra":true}');
  });

  it('join: strings and bytes, multi-byte characters counted in bytes, nothing left over', () => {
    const joined = enc.join(['é✓', Buffer.from('{"x":"✓"}'), 'z'], true);
    expect(joined.toString('utf8')).toBe('é✓\n{"x":"✓"}\nz\n');
    expect(joined.length).toBe(Buffer.byteLength('é✓\n{"x":"✓"}\nz\n'));
    expect(enc.join([], true)).toEqual(Buffer.alloc(0));
  });
});

describe('some fields', () => {
  it('JSON keeps those fields, in their order, and ignores the bytes as sent', () => {
    const enc = createEncoder('jsonl', { fields: ['note', 'id'], allFields: all });
    expect(enc.item(a, Buffer.from('{"id":"a","n":1,"note":"é✓"}'))).toBe('{"note":"é✓","id":"a"}');
    expect(enc.item({ id: 'c' })).toBe('{"id":"c"}');
  });

  it('the same fields in another order, or fewer, are a choice', () => {
    const raw = Buffer.from('{"id":"a","n":1,"note":"é✓"}');
    expect(createEncoder('jsonl', { fields: ['n', 'id', 'note'], allFields: all }).item(a, raw)).toBe('{"n":1,"id":"a","note":"é✓"}');
    expect(createEncoder('jsonl', { fields: ['id', 'n'], allFields: all }).item(a, raw)).toBe('{"id":"a","n":1}');
    expect(createEncoder('jsonl', { fields: ['id', 'n', 'note', 'x'], allFields: all }).item(a, raw)).toBe('{"id":"a","n":1,"note":"é✓"}');
  });
});

describe('JSON', () => {
  const enc = createEncoder('json', { fields: all, allFields: all });

  it("'[' first, ',' between batches, a closing bracket on its own line", () => {
    expect([enc.header(), enc.between, enc.footer(true), enc.footer(false)]).toEqual(['[', ',', '\n]\n', ']\n']);
    expect(enc.batch([a, b], true)).toBe('\n{"id":"a","n":1,"note":"é✓"},\n{"id":"b","n":2,"note":null}');
    expect(enc.batch([b], false)).toBe(',\n{"id":"b","n":2,"note":null}');
    expect(enc.batch([], true)).toBe('');
    expect(enc.batch([], false)).toBe('');
  });

  it('a batch encoded as the first, with the between before it, reads as a later one', () => {
    expect(enc.between + enc.batch([b], true)).toBe(enc.batch([b], false));
  });

  it('encodeAll: the whole array, or an empty one', () => {
    expect(encodeAll('json', [a, b], { fields: ['id'], allFields: all })).toBe('[\n{"id":"a"},\n{"id":"b"}\n]\n');
    expect(encodeAll('json', [], { fields: all, allFields: all })).toBe('[]\n');
    expect(encodeAll('jsonl', [], { fields: all, allFields: all })).toBe('');
  });
});

describe('CSV', () => {
  it('a header of the fields, a line a record, cells quoted as RFC 4180 says', () => {
    const enc = createEncoder('csv', { fields: ['note', 'id'], allFields: all });
    expect([enc.header(), enc.between, enc.footer(true)]).toEqual(['note,id\n', '', '']);
    expect(enc.item(a)).toBe('é✓,a\n');
    expect(enc.batch([{ id: 'x,y', note: 'say "hi"' }, b], true)).toBe('"say ""hi""","x,y"\n,b\n');
    expect(encodeAll('csv', [], { fields: ['id'], allFields: all })).toBe('id\n');
  });

  it('--excel-safe: formula cells neutralised', () => {
    const enc = createEncoder('csv', { fields: ['id'], allFields: all, excelSafe: true });
    expect(enc.item({ id: '=1+1' })).toBe("'=1+1\n");
    expect(createEncoder('csv', { fields: ['id'], allFields: all }).item({ id: '=1+1' })).toBe('=1+1\n');
  });
});

describe('linesEncoder', () => {
  it('its header, a line a record, nothing between or after', () => {
    const enc = linesEncoder(
      () => 'H\n',
      (record) => `${(record as { id: string }).id}\n`,
    );
    expect(enc.header()).toBe('H\n');
    expect(enc.batch([a, b], true)).toBe('a\nb\n');
    expect(enc.batch([a], false)).toBe('a\n');
    expect(enc.join(['x\n', Buffer.from('y\n')], false).toString()).toBe('x\ny\n');
    expect([enc.between, enc.footer(true)]).toEqual(['', '']);
  });
});

describe('cellText', () => {
  it.each([
    [null, false, ''],
    [undefined, false, ''],
    ['', false, ''],
    ['text', false, 'text'],
    [1.5, false, '1.5'],
    [Number.NaN, false, 'NaN'],
    [Number.POSITIVE_INFINITY, false, 'Infinity'],
    [true, false, 'true'],
    [false, false, 'false'],
    [[1, 'a'], false, '[1,"a"]'],
    [{ k: 'v' }, false, '{"k":"v"}'],
    ['=A1', true, "'=A1"],
    ['+1', true, "'+1"],
    ['-1', true, "'-1"],
    ['@x', true, "'@x"],
    ['\tx', true, "'\tx"],
    ['\rx', true, "'\rx"],
    ['a=b', true, 'a=b'],
    ['x\n=y', true, 'x\n=y'],
    [-1, true, '-1'],
    [['=x'], true, '["=x"]'],
    [null, true, ''],
  ])('%j (excel-safe %s): %j', (value, excelSafe, expected) => {
    expect(cellText(value, excelSafe)).toBe(expected);
  });
});
