import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyCount, splitObjects } from '../../src/windows/json-elements.js';

/** The elements as the split reads them: each parsed, and its bytes when it says they are canonical. */
function read(text: string | Buffer) {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const elements = splitObjects(bytes);
  if (elements === undefined) return undefined;
  return Array.from({ length: elements.count }, (_, i) => {
    const slice = bytes.subarray(elements.spans[i * 2], elements.spans[i * 2 + 1]);
    const value = JSON.parse(slice.toString('utf8')) as unknown;
    const canonical = elements.canonical[i] === 1 && keyCount(value) === elements.keys[i];
    return { value, raw: canonical ? slice.toString('utf8') : undefined };
  });
}

function hasDigitKey(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(hasDigitKey);
  return Object.entries(value).some(([key, inner]) => /^\d/.test(key) || hasDigitKey(inner));
}

describe('splitObjects', () => {
  it('splits an array of objects, whatever the spacing between elements', () => {
    expect(read('[{"a":1},{"b":[{"c":"}"}]}]')).toEqual([
      { value: { a: 1 }, raw: '{"a":1}' },
      { value: { b: [{ c: '}' }] }, raw: '{"b":[{"c":"}"}]}' },
    ]);
    expect(read(' [\n  {"a":1} ,\n  {"a":2}\n]\n')).toEqual([
      { value: { a: 1 }, raw: '{"a":1}' },
      { value: { a: 2 }, raw: '{"a":2}' },
    ]);
    expect(read('[]')).toEqual([]);
    expect(read(' [ ] ')).toEqual([]);
  });

  it.each([
    ['whitespace inside', '{"a": 1}'],
    ['an escape', '{"a":"\\u0041"}'],
    ['a slash escape', '{"a":"x\\/y"}'],
    ['a trailing zero', '{"a":1.50}'],
    ['an exponent', '{"a":1e3}'],
    ['minus zero', '{"a":-0}'],
    ['more digits than a double holds', '{"a":0.1000000000000000055511151231257827}'],
    ['an integer-like key, which JavaScript moves first', '{"b":1,"0":2}'],
    ['a key sent twice', '{"a":1,"a":2}'],
    ['a key sent twice in a nested object', '{"t":[{"k":1,"k":2}]}'],
  ])('a value with %s is not canonical: its bytes are not what JSON.stringify writes', (_, element) => {
    const [one] = read(`[${element}]`)!;
    expect(one!.raw).toBeUndefined();
    expect(JSON.stringify(one!.value)).not.toBe(element);
  });

  it('any escape is left to JSON.stringify, even one it would write the same way', () => {
    const element = '{"a":"say \\"hi\\""}';
    expect(read(`[${element}]`)).toEqual([{ value: { a: 'say "hi"' }, raw: undefined }]);
    expect(JSON.stringify({ a: 'say "hi"' })).toBe(element);
  });

  // Numbers as a server might write them: the bytes are taken as they are exactly when JSON.stringify writes them so.
  it('takes a number as canonical exactly when JSON.stringify writes it the same way', () => {
    const written = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
      fc.tuple(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.integer({ min: 0, max: 20 })).map(([n, k]) => n.toFixed(k)),
      fc.tuple(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: 1, max: 21 })).map(([n, k]) => n.toPrecision(k)),
      fc.tuple(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: 0, max: 20 })).map(([n, k]) => n.toExponential(k)),
      fc.stringMatching(/^-?(0|[1-9]\d{0,24})(\.\d{1,24})?$/),
    );
    fc.assert(
      fc.property(written, (number) => {
        const [one] = read(`[{"n":${number}}]`)!;
        expect(one!.raw !== undefined).toBe(JSON.stringify(one!.value) === `{"n":${number}}`);
      }),
      { numRuns: 3000 },
    );
  });

  it('bytes that are not UTF-8 are never canonical (decoding replaces them)', () => {
    const bytes = Buffer.concat([Buffer.from('[{"a":"'), Buffer.from([0xff]), Buffer.from('"}]')]);
    expect(read(bytes)![0]!.raw).toBeUndefined();
  });

  it('UTF-8 text is canonical', () => {
    expect(read('[{"a":"é → ✓"}]')).toEqual([{ value: { a: 'é → ✓' }, raw: '{"a":"é → ✓"}' }]);
  });

  it.each([
    ['an object', '{"a":1}'],
    ['null', 'null'],
    ['an array of numbers', '[1,2]'],
    ['an array with a null', '[{"a":1},null]'],
    ['a trailing comma', '[{"a":1},]'],
    ['text after the array', '[{"a":1}] x'],
    ['an unclosed array', '[{"a":1}'],
    ['an unclosed object', '[{"a":1'],
    ['an unclosed string', '[{"a":"1}]'],
    ['a byte order mark', '\uFEFF[{"a":1}]'],
    ['nothing', ''],
  ])('%s is not split: the caller reads it the ordinary way', (_, text) => {
    expect(splitObjects(Buffer.from(text))).toBeUndefined();
  });

  // Any array of objects, written compactly or spaced: the split finds exactly the elements JSON.parse finds,
  // and every element it calls canonical is byte for byte what JSON.stringify writes.
  it('agrees with JSON.parse and JSON.stringify on any array of objects', () => {
    const object = fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue({ stringUnit: 'binary' }), { maxKeys: 6 });
    fc.assert(
      fc.property(fc.array(object, { maxLength: 5 }), fc.boolean(), (objects, spaced) => {
        const text = spaced ? JSON.stringify(objects, null, 1) : JSON.stringify(objects);
        const elements = read(text);
        expect(elements).toBeDefined();
        expect(elements!.map((e) => e.value)).toEqual(JSON.parse(text));
        for (const element of elements!) if (element.raw !== undefined) expect(element.raw).toBe(JSON.stringify(element.value));
        // Compact JSON as JSON.stringify writes it is taken as canonical unless it holds an escape or a key that looks like an integer.
        if (!spaced) {
          for (const element of elements!) {
            const compact = JSON.stringify(element.value);
            expect(element.raw === undefined).toBe(compact.includes('\\') || hasDigitKey(element.value));
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
