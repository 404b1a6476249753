/**
 * The split's edges one by one: each kind of number against JSON.stringify, the whitespace JSON allows, arrays of
 * more elements than the first capacity, escaped quotes and backslashes, the nesting bound, and every way a body
 * can fail to be an array of objects.
 */
import { describe, expect, it } from 'vitest';
import { MAX_NESTING } from '../../src/api/shape.js';
import { keyCount, numberOnBytes, splitObjects, utf8Text } from '../../src/windows/json-elements.js';

/** The split of `text` as plain values: each element's text, whether it is canonical, and its colon count. */
function split(text: string) {
  const bytes = Buffer.from(text);
  const elements = splitObjects(bytes);
  if (elements === undefined) return undefined;
  return Array.from({ length: elements.count }, (_, i) => ({
    text: bytes.subarray(elements.spans[i * 2], elements.spans[i * 2 + 1]).toString('utf8'),
    canonical: elements.canonical[i] === 1,
    keys: elements.keys[i],
  }));
}

describe('splitObjects on numbers', () => {
  // Every token JSON allows that a server might write: canonical exactly when JavaScript prints its value the same way.
  const tokens = [
    ['0', '-0', '1', '-1', '7', '10', '-70', '100', '0.0', '-0.0', '7.0', '0.10', '1.50', '1.05', '-0.5', '0.5', '100.25'],
    ['0.000001', '0.0000010', '0.0000001', '-0.0000001', '0.00000012', '0.0001', '1e5', '1E5', '1e+5', '1E-7', '1e-7', '1e21'],
    ['123456789012345', '1234567890123456', '12345678901234567', '123456789012345678901', '9007199254740993'],
    ['0.1', '0.30000000000000004', '3.14159265358979', '5e-324', '1.7976931348623157e308', '-12.5e3', '0.12345678901234'],
  ].flat();

  it.each(tokens)('%s is canonical exactly when JSON.stringify writes it so', (token) => {
    const element = `{"n":${token}}`;
    expect(split(`[${element}]`)).toEqual([{ text: element, canonical: String(Number(token)) === token, keys: 1 }]);
  });

  // The bytes decide the numbers a server mostly sends, without printing each: the rest is printed to be compared.
  const onBytes = (token: string) => numberOnBytes(Buffer.from(`x${token}x`), 1, token.length + 1);
  it.each(
    [
      ['0', '-0', '7', '-70', '100', '0.5', '-0.5', '1.50', '0.0', '-0.0', '7.0', '0.10', '100.25', '1.05', '-12.5'],
      ['0.000001', '-0.000001', '5.0000001', '123456789012345', '0.12345678901234', '3.14159265358979', '-99999999999999.9'],
    ].flat(),
  )('%s is decided on its bytes, as JSON.stringify would decide it', (token) => {
    expect(onBytes(token)).toBe(String(Number(token)) === token);
  });

  it.each(['1e5', '1E5', '1e+5', '-1e-7', '0.0000001', '-0.0000001', '0.00000012', '1234567890123456', '12345678901234567', '5e-324'])(
    '%s is left to printing its value (an exponent, more digits than a double keeps, below 1e-6)',
    (token) => {
      expect(onBytes(token)).toBeUndefined();
    },
  );

  it('ends a number where the element ends it, at the end of an object or an array', () => {
    expect(split('[{"n":[1E5,2]},{"m":-0}]')).toEqual([
      { text: '{"n":[1E5,2]}', canonical: false, keys: 1 },
      { text: '{"m":-0}', canonical: false, keys: 1 },
    ]);
    expect(split('[{"n":[12,2]}]')).toEqual([{ text: '{"n":[12,2]}', canonical: true, keys: 1 }]);
  });
});

describe('splitObjects on the shape of the body', () => {
  it('takes each whitespace JSON allows between tokens: space, tab, line feed, carriage return', () => {
    expect(split('\t[\r\n {"a":1}\t,\r{"b":2} ]\r\n')).toEqual([
      { text: '{"a":1}', canonical: true, keys: 1 },
      { text: '{"b":2}', canonical: true, keys: 1 },
    ]);
    expect(split('[{"a":\t1}]')).toEqual([{ text: '{"a":\t1}', canonical: false, keys: 1 }]);
    expect(split('[{"a":\r1}]')).toEqual([{ text: '{"a":\r1}', canonical: false, keys: 1 }]);
  });

  it('splits an empty array into no elements', () => {
    for (const text of ['[]', ' [ ]\n', '[\t\r\n]']) {
      const elements = splitObjects(Buffer.from(text));
      expect(elements?.count).toBe(0);
      expect(elements?.spans).toBeInstanceOf(Uint32Array);
    }
  });

  it('splits more elements than its first capacity, every span, flag and count kept', () => {
    const objects = Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? `{"i":${i},"x":{"y":[${i}]}}` : i % 3 === 1 ? `{"i": ${i}}` : `{"i":${i}}`));
    expect(split(`[${objects.join(',')}]`)).toEqual(objects.map((text, i) => ({ text, canonical: i % 3 !== 1, keys: i % 3 === 0 ? 3 : 1 })));
  });

  it('skips escaped quotes and escaped backslashes inside strings, whatever braces they hold', () => {
    const elements = ['{"a":"x\\"}"}', '{"b":"\\\\"}', '{"c":"\\\\\\"]"}', '{"d":"}"}'];
    expect(split(`[${elements.join(',')}]`)).toEqual([
      { text: elements[0], canonical: false, keys: 1 },
      { text: elements[1], canonical: false, keys: 1 },
      { text: elements[2], canonical: false, keys: 1 },
      { text: elements[3], canonical: true, keys: 1 },
    ]);
    expect(elements.map((e) => JSON.parse(e) as unknown)).toEqual([{ a: 'x"}' }, { b: '\\' }, { c: '\\"]' }, { d: '}' }]);
  });

  it('takes a key that looks like an integer as not canonical, and a value that does as canonical', () => {
    expect(split('[{"9":1},{"0":1},{"a":"1"},{"a":"9x"},{"a":":"}]')!.map((e) => e.canonical)).toEqual([false, false, true, true, true]);
  });

  it(`splits an element nested ${MAX_NESTING} levels deep, and none deeper`, () => {
    const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
    expect(split(`[${nested(MAX_NESTING)}]`)).toEqual([{ text: nested(MAX_NESTING), canonical: true, keys: MAX_NESTING - 1 }]);
    expect(split(`[${nested(MAX_NESTING + 1)}]`)).toBeUndefined();
  });

  it.each([
    ['text before the array', 'x{"a":1}]'],
    ['a number before an object', '[1,{"a":1}]'],
    ['text after an element', '[{"a":1}x'],
    ['text after an empty array', '[] x'],
    ['an array cut inside an element', '[{"a":[1,2'],
    ['an array cut after an element', '[{"a":1},'],
  ])('%s is not split', (_, text) => {
    expect(splitObjects(Buffer.from(text))).toBeUndefined();
  });
});

describe('keyCount', () => {
  it('counts the keys of objects at any depth, in arrays too, and none in anything else', () => {
    expect([null, 'abc', 12, true, [], {}].map(keyCount)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(keyCount({ a: { b: 1, c: 'xy' }, d: [{ e: null }, 'fg', [{ h: [] }]], i: null })).toBe(7);
  });
});

describe('utf8Text', () => {
  it('reads the bytes between two offsets as UTF-8', () => {
    const bytes = Buffer.from('[{"a":"é ✓"}]');
    expect(utf8Text(bytes, 1, bytes.length - 1)).toBe('{"a":"é ✓"}');
    expect(utf8Text(bytes, 0, 0)).toBe('');
  });
});
