import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvField, csvLines } from '../../src/output/csv.js';
import { createEncoder } from '../../src/output/encode.js';

// Text that stresses the quoting rules: the four special characters, spaces, tabs, unicode, emptiness.
const cellText = fc.oneof(
  fc.string(),
  fc.stringMatching(/^[",\r\n a\t=é]{0,8}$/),
  fc.constantFrom('', '"', '""', ',', '\r\n', ' x ', 'a"b', '\n', '\r', '😀,'),
);

describe('csv: the hand-written writer is byte-identical to csv-stringify at its defaults', () => {
  it('for any rows of cell texts', () => {
    fc.assert(
      fc.property(fc.array(fc.array(cellText, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 5 }), (rows) => {
        expect(csvLines(rows)).toBe(stringify(rows));
      }),
      { numRuns: 2000 },
    );
  });

  it('for swap-shaped records through the encoder, excel-safe or not', () => {
    const value = fc.oneof(cellText, fc.constant(null), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.array(fc.string(), { maxLength: 3 }));
    const fields = ['id', 'amount', 'tags'];
    fc.assert(
      fc.property(fc.array(fc.tuple(value, value, value), { maxLength: 5 }), fc.boolean(), (tuples, excelSafe) => {
        const records = tuples.map(([id, amount, tags]) => ({ id, amount, tags }));
        const encoder = createEncoder('csv', { fields, allFields: fields, excelSafe });
        const cells = records.map((r) => fields.map((f) => cellOf(r[f as keyof typeof r], excelSafe)));
        expect(encoder.header() + encoder.batch(records, true)).toBe(stringify([fields, ...cells]));
      }),
      { numRuns: 1000 },
    );
  });

  it("from a record's canonical JSON bytes: the same line as from the record, for any fields in any order", () => {
    // Values as a swap holds them; strings whose JSON needs no escape (canonical bytes have none), of the characters that matter.
    const text = fc.array(fc.constantFrom('a', '=', '+', '-', '@', ',', ' ', 'é', '😀', '0'), { maxLength: 6 }).map((chars) => chars.join(''));
    const value = fc.oneof(
      text,
      fc.constant(null),
      fc.boolean(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer(),
      fc.array(text, { maxLength: 3 }),
      fc.array(fc.record({ type: text, value: text }), { maxLength: 2 }),
    );
    const names = ['id', 'amount', 'tags', 'x,y', 'é'];
    const record = fc.dictionary(fc.constantFrom(...names, 'extra'), value, { maxKeys: 6 });
    const fields = fc.shuffledSubarray(names, { minLength: 1 });
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 4 }), fields, fc.boolean(), (records, fields, excelSafe) => {
        const encoder = createEncoder('csv', { fields, allFields: names, excelSafe });
        const lines = records.map((r) => {
          const raw = Buffer.from(JSON.stringify(r));
          const out = Buffer.alloc(encoder.fromRaw!.bound(raw));
          return out.toString('utf8', 0, encoder.fromRaw!.write(r, raw, out, 0));
        });
        expect(lines.join('')).toBe(encoder.batch(records, true));
        expect(lines.join('')).toBe(stringify(records.map((r) => fields.map((f) => cellOf(r[f], excelSafe)))));
      }),
      { numRuns: 3000 },
    );
  });

  it('quotes exactly the cells that need it', () => {
    expect([csvField('plain'), csvField(''), csvField('a,b'), csvField('say "hi"'), csvField('two\nlines'), csvField('cr\r')]).toEqual([
      'plain',
      '',
      '"a,b"',
      '"say ""hi"""',
      '"two\nlines"',
      '"cr\r"',
    ]);
  });
});

// The cell texts as the encoder's documented rules make them (null empty, arrays as JSON, formulas neutralised).
function cellOf(value: unknown, excelSafe: boolean): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return excelSafe && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return JSON.stringify(value);
}
