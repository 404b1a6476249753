/** `--fields a,b,c`: which fields, in which order, and the words of each refusal. */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { selectFields } from '../../src/cli/fields.js';

const known = ['id', 'sourceChain', 'destinationChain', 'depositAmount', 'tags'];

function refusal(spec: string, fields: readonly string[] = known): string {
  try {
    selectFields(spec, fields);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`selectFields accepted '${spec}'`);
}

describe('selectFields', () => {
  it('without --fields: every known field, in a copy', () => {
    const all = selectFields(undefined, known);
    expect(all).toEqual(known);
    expect(all).not.toBe(known);
  });

  it('picks the fields named, in that order, whatever their case and the spaces around them', () => {
    expect(selectFields('tags, ID ,sourcechain', known)).toEqual(['tags', 'id', 'sourceChain']);
    expect(selectFields('depositAmount', known)).toEqual(['depositAmount']);
  });

  it('refuses an empty name, with an example of the first three fields', () => {
    expect(refusal('id,,tags')).toBe("--fields has an empty name in 'id,,tags' (give a comma-separated list such as id,sourceChain,destinationChain)");
    expect(refusal('id, ')).toBe("--fields has an empty name in 'id, ' (give a comma-separated list such as id,sourceChain,destinationChain)");
    expect(refusal('')).toBe("--fields has an empty name in '' (give a comma-separated list such as id,sourceChain,destinationChain)");
  });

  it('refuses a field named twice, in any case', () => {
    expect(refusal('id,tags,ID')).toBe("--fields names 'id' twice");
  });

  it('an unknown field: the one spelled with _ or - instead, else the closest, else every known name', () => {
    expect(refusal('source_chain')).toBe("--fields: unknown field 'source_chain'; did you mean sourceChain?");
    expect(refusal('DESTINATION-CHAIN')).toBe("--fields: unknown field 'DESTINATION-CHAIN'; did you mean destinationChain?");
    // Too far in edits for a suggestion: only the spelling without _ and - finds it.
    expect(refusal('s_o_u_r_c_e_c_h_a_i_n')).toBe("--fields: unknown field 's_o_u_r_c_e_c_h_a_i_n'; did you mean sourceChain?");
    expect(refusal('tag')).toBe("--fields: unknown field 'tag'; did you mean tags?");
    expect(refusal('zzzzzz')).toBe("--fields: unknown field 'zzzzzz' (known: id, sourceChain, destinationChain, depositAmount, tags)");
  });

  it('balanceChanges where the command lacks it: named with the command that has it, in any case', () => {
    const message = '--fields: balanceChanges is only in swapx swap: the list of swaps does not carry it';
    expect(refusal('balanceChanges')).toBe(message);
    expect(refusal('id,BALANCECHANGES')).toBe(message);
  });

  it('balanceChanges where the command has it is a field like any other', () => {
    expect(selectFields('balancechanges,id', [...known, 'balanceChanges'])).toEqual(['balanceChanges', 'id']);
  });
});
