/** A field's value as one line of table text: string lists joined, objects and other lists as compact JSON, the rest as text. */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  // Strings as they are, numbers as people write them (NaN, not JSON's null).
  return String(value);
}
