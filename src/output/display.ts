/** A field's value as one line of table text: strings as they are, string lists joined, anything else as compact JSON. */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
