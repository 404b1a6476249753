/** Credentials as the API takes them, and the only places they turn into text. */

export type Credentials = { kind: 'basic'; clientId: string; apiKey: string } | { kind: 'bearer'; token: string };

/** `Basic base64(client_id:api_key)` (of its UTF-8, Buffer's default) or `Bearer <token>`. */
export function authorizationHeader(credentials: Credentials): string {
  if (credentials.kind === 'bearer') return `Bearer ${credentials.token}`;
  return `Basic ${Buffer.from(`${credentials.clientId}:${credentials.apiKey}`).toString('base64')}`;
}

/** The scheme stays visible, the credential never does: a base64 Basic value is the password in clear. */
export function redactAuthorization(value: string): string {
  // The first word followed by a space (the leftmost match: no anchor needed).
  const scheme = /(\S+)\s/.exec(value)?.[1];
  return scheme ? `${scheme} [REDACTED]` : '[REDACTED]';
}

/** At most 2 leading and 2 trailing characters, fewer for short secrets. */
export function maskSecret(secret: string): string {
  const n = secret.length;
  if (n >= 12) return `${secret.slice(0, 2)}…${secret.slice(-2)}`;
  if (n >= 8) return `${secret.slice(0, 1)}…${secret.slice(-1)}`;
  return '****';
}

/** Every string that must never be printed for these credentials (raw secret and its encodings). */
export function secretsOf(credentials: Credentials): string[] {
  if (credentials.kind === 'bearer') return [credentials.token];
  const header = authorizationHeader(credentials).slice('Basic '.length);
  return [credentials.apiKey, header];
}
