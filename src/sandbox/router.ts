/**
 * Route matching like ASP.NET's: literal segments case-insensitive, one
 * trailing slash ignored, route values percent-decoded.
 */

export type Route =
  | { name: 'swaps' }
  | { name: 'swap'; identifier: string }
  | { name: 'chains' }
  | { name: 'tokens'; blockchainId: string }
  | { name: 'bridges' };

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function matchRoute(pathname: string): Route | undefined {
  const parts = pathname.split('/').slice(1);
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  const lower = parts.map((p) => p.toLowerCase());
  if (lower[0] !== 'v1' || lower[1] !== 'external') return undefined;
  const rest = lower.slice(2);
  const raw = parts.slice(2);
  if (rest.length === 1 && rest[0] === 'swaps') return { name: 'swaps' };
  if (rest.length === 2 && rest[0] === 'swaps' && raw[1]) return { name: 'swap', identifier: decode(raw[1]) };
  if (rest.length === 1 && rest[0] === 'chains') return { name: 'chains' };
  if (rest.length === 3 && rest[0] === 'chains' && raw[1] && rest[2] === 'tokens') return { name: 'tokens', blockchainId: decode(raw[1]) };
  if (rest.length === 1 && rest[0] === 'bridges') return { name: 'bridges' };
  return undefined;
}

/** The request target as a URL; origin-form ('/v1/…', even '//v1/…') is a path, anything unparsable becomes '/'. */
export function requestUrl(target: string): URL {
  const base = 'http://sandbox.invalid';
  try {
    return target.startsWith('/') ? new URL(`${base}${target}`) : new URL(target);
  } catch {
    return new URL(`${base}/`);
  }
}
