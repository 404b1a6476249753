/** `--fields a,b,c`: only these fields, in this order, each one the resource has. */
import { UsageError } from '../api/errors.js';
import { closest } from '../util/suggest.js';

/** Fields some command has and another lacks: named with the command that has them, not among every known name. */
const ELSEWHERE: Record<string, string> = {
  balancechanges: 'balanceChanges is only in swapx swap: the list of swaps does not carry it',
};

/** `source_chain` and `source-chain` are how people spell sourceChain elsewhere. */
const squash = (name: string) => name.toLowerCase().replace(/[_-]/g, '');

export function selectFields(spec: string | undefined, known: readonly string[]): string[] {
  if (spec === undefined) return [...known];
  const names = spec.split(',').map((name) => name.trim());
  if (names.some((name) => name === ''))
    throw new UsageError(`--fields has an empty name in '${spec}' (give a comma-separated list such as ${known.slice(0, 3).join(',')})`);
  const byLower = new Map(known.map((name) => [name.toLowerCase(), name]));
  const fields: string[] = [];
  for (const name of names) {
    const field = byLower.get(name.toLowerCase());
    if (!field) throw new UsageError(unknownField(name, known));
    if (fields.includes(field)) throw new UsageError(`--fields names '${field}' twice`);
    fields.push(field);
  }
  return fields;
}

function unknownField(name: string, known: readonly string[]): string {
  // Only called for a name the command lacks, in any case.
  const elsewhere = ELSEWHERE[name.toLowerCase()];
  if (elsewhere) return `--fields: ${elsewhere}`;
  const near = known.find((field) => squash(field) === squash(name)) ?? closest(name, known, 1)[0];
  if (near) return `--fields: unknown field '${name}'; did you mean ${near}?`;
  return `--fields: unknown field '${name}' (known: ${known.join(', ')})`;
}
