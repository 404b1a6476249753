/**
 * The two schemes of the spec: Basic base64(client_id:api_key) against the
 * configured clients, or a Bearer token from the configured list.
 */

export type AuthOutcome = { ok: true; clientId: string } | { ok: false; detail: string; unconfirmed?: string };

/** The client id that stands for an account not confirmed yet. */
export const UNCONFIRMED_CLIENT = 'unconfirmed';

export interface Credentials {
  /** 'id:key' strings. */
  clients: ReadonlySet<string>;
  bearerTokens: ReadonlySet<string>;
}

export function authenticate(header: string | undefined, credentials: Credentials): AuthOutcome {
  if (header === undefined || header.trim() === '') return { ok: false, detail: 'The Authorization header is missing.' };
  const match = /^\s*(\S+)\s+(\S+)\s*$/.exec(header);
  if (!match) return { ok: false, detail: 'The Authorization header is malformed.' };
  const scheme = (match[1] ?? '').toLowerCase();
  const value = match[2] ?? '';
  if (scheme === 'bearer') {
    return credentials.bearerTokens.has(value) ? { ok: true, clientId: 'bearer' } : { ok: false, detail: 'The access token is not valid.' };
  }
  if (scheme !== 'basic') return { ok: false, detail: `The authorization scheme '${match[1]}' is not supported.` };
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return { ok: false, detail: 'The Basic credentials are not valid base64.' };
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return { ok: false, detail: 'The Basic credentials must be client_id:api_key.' };
  if (!credentials.clients.has(decoded)) return { ok: false, detail: 'The client id or API key is not valid.' };
  const clientId = decoded.slice(0, colon);
  if (clientId === UNCONFIRMED_CLIENT) return { ok: false, detail: 'unconfirmed', unconfirmed: clientId };
  return { ok: true, clientId };
}
