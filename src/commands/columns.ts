/** Table columns straight from field names, for the plain list views. */
import type { Column } from '../output/table.js';

export function displayValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function fieldColumns<T extends object>(fields: readonly string[], overrides: Partial<Record<string, Partial<Column<T>>>> = {}): Column<T>[] {
  return fields.map((field) => ({
    header: field,
    value: (row: T) => displayValue((row as Record<string, unknown>)[field]),
    align: undefined,
    ...overrides[field],
  }));
}
