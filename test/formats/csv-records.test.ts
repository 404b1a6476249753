/** readCsvRecords at its edges: line ends, blank lines, quotes where they end a field and where they do not. */
import { describe, expect, it } from 'vitest';
import { readCsvRecords } from '../../src/formats/csv-records.js';

function read(text: string): [string[], string][] {
  const out: [string[], string][] = [];
  readCsvRecords(text, (record, raw) => out.push([record, raw]));
  return out;
}

describe('readCsvRecords', () => {
  it('nothing: no record', () => {
    expect(read('')).toEqual([]);
  });

  it('\\n, \\r\\n and a lone \\r each end a record; the last needs none', () => {
    expect(read('a,b\nc\r\nd\re')).toEqual([
      [['a', 'b'], 'a,b\n'],
      [['c'], 'c\r\n'],
      [['d'], 'd\r'],
      [['e'], 'e'],
    ]);
  });

  it('a blank line is no record (nor one empty quoted field); a line of empty fields is', () => {
    expect(read('\n\r\n,\n""\n')).toEqual([[['', ''], ',\n']]);
  });

  it('a quote inside an unquoted field is text', () => {
    expect(read('a"b,c\n')).toEqual([[['a"b', 'c'], 'a"b,c\n']]);
  });

  it('quoted: commas, line breaks and doubled quotes, at the start, the middle and the end', () => {
    expect(read('"""a",",","\r\n","b"""\n')).toEqual([[['"a', ',', '\r\n', 'b"'], '"""a",",","\r\n","b"""\n']]);
    expect(read('""""\n')).toEqual([[['"'], '""""\n']]);
  });

  it('text after a closing quote starts the next record', () => {
    expect(read('"a"x,y\n')).toEqual([
      [['a'], '"a"'],
      [['x', 'y'], 'x,y\n'],
    ]);
  });

  it('a trailing comma is an empty last field', () => {
    expect(read('a,\nb')).toEqual([
      [['a', ''], 'a,\n'],
      [['b'], 'b'],
    ]);
  });

  it('a quoted field that is not closed is refused', () => {
    expect(() => read('"abc')).toThrow('a quoted CSV field is not closed');
    expect(() => read('"ab""c')).toThrow('a quoted CSV field is not closed');
  });
});
