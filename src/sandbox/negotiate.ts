/**
 * Response media type from the Accept header. The spec allows application/json,
 * text/json and text/plain for every body; application/json is the default.
 */

const JSON_TYPE = 'application/json; charset=utf-8';

const SUPPORTED: Record<string, string> = {
  'application/json': JSON_TYPE,
  'text/json': 'text/json; charset=utf-8',
  'text/plain': 'text/plain; charset=utf-8',
  'application/*': JSON_TYPE,
  'text/*': 'text/plain; charset=utf-8',
  '*/*': JSON_TYPE,
};

/** Highest-q supported range wins; equal q keeps header order, as ASP.NET's formatter selection does. */
export function contentTypeFor(accept: string | undefined): string {
  if (!accept) return JSON_TYPE;
  const ranges = accept
    .split(',')
    .map((part, order) => {
      const [type = '', ...params] = part.split(';').map((s) => s.trim());
      const q = params.find((p) => p.toLowerCase().startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { type: type.toLowerCase(), q: Number.isFinite(weight) ? weight : 0, order };
    })
    .filter((r) => r.q > 0 && SUPPORTED[r.type] !== undefined)
    .sort((a, b) => b.q - a.q || a.order - b.order);
  const best = ranges[0];
  return best ? (SUPPORTED[best.type] ?? JSON_TYPE) : JSON_TYPE;
}
