/** displayValue: a field's value as one line of table text. */
import { describe, expect, it } from 'vitest';
import { displayValue } from '../../src/output/display.js';

describe('displayValue', () => {
  it.each([
    ['null', null, ''],
    ['undefined', undefined, ''],
    ['a string as it is', 'Stargate', 'Stargate'],
    ['the empty string', '', ''],
    ['a list of strings, joined', ['nft', 'bridge'], 'nft, bridge'],
    ['an empty list', [], ''],
    ['a list not all strings, as JSON', ['a', 1], '["a",1]'],
    ['an object, as compact JSON', { type: 'nft', value: 'x' }, '{"type":"nft","value":"x"}'],
    ['a number', 1.5, '1.5'],
    ['a boolean', false, 'false'],
    ['a number JSON has no word for', Number.NaN, 'NaN'],
    ['an infinite number', Number.NEGATIVE_INFINITY, '-Infinity'],
  ])('%s', (_name, value, expected) => {
    expect(displayValue(value)).toBe(expected);
  });
});
