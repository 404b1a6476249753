/** `--fields a,b,c`: only these fields, in this order, each one the resource has. */
import { UsageError } from '../api/errors.js';

export function selectFields(spec: string | undefined, known: readonly string[]): string[] {
  if (spec === undefined) return [...known];
  const names = spec.split(',').map((name) => name.trim());
  if (names.some((name) => name === ''))
    throw new UsageError(`--fields has an empty name in '${spec}' (give a comma-separated list such as ${known.slice(0, 3).join(',')})`);
  const byLower = new Map(known.map((name) => [name.toLowerCase(), name]));
  const fields: string[] = [];
  for (const name of names) {
    const field = byLower.get(name.toLowerCase());
    if (!field) throw new UsageError(`--fields: unknown field '${name}' (known: ${known.join(', ')})`);
    if (fields.includes(field)) throw new UsageError(`--fields names '${field}' twice`);
    fields.push(field);
  }
  return fields;
}
