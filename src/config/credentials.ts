/**
 * Which credentials a command uses, and where they come from, as the AWS CLI chooses: a profile named with --profile
 * (a flag) gives its own and the environment's are not read; otherwise the environment's beat the stored profile's
 * (SWAPX_PROFILE's, as AWS_PROFILE's, or the default one).
 */
import { AuthError } from '../api/errors.js';
import type { Credentials } from '../api/credentials.js';
import type { ConfigStore } from './store.js';

export interface ResolvedCredentials {
  credentials: Credentials;
  source: 'env' | 'profile';
  /** e.g. "the environment (SWAPX_CLIENT_ID and SWAPX_API_KEY)" or "profile 'default' (/path/config.json)" */
  origin: string;
}

/** An environment value, trimmed (secrets read from files often end in a newline); a control character left inside is refused. */
function fromEnv(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  if (!value) return undefined;
  if (/[\u0000-\u001f\u007f]/.test(value)) throw new AuthError(`${name} contains a control character; set it to the bare value`);
  return value;
}

/** `explicit`: the profile was named with --profile. */
export function resolveCredentials(env: NodeJS.ProcessEnv, store: ConfigStore, profile: string, explicit = false): ResolvedCredentials | undefined {
  const resolved = explicit ? fromProfile(store, profile) : (fromEnvironment(env) ?? fromProfile(store, profile));
  const unsendable = resolved && unsendableCredentials(resolved.credentials);
  if (unsendable) {
    const name =
      resolved.source === 'env' ? (unsendable.field === 'token' ? 'SWAPX_TOKEN' : 'SWAPX_CLIENT_ID') : `the ${unsendable.field} of profile '${profile}'`;
    throw new AuthError(`${name} ${unsendable.why}`);
  }
  return resolved;
}

function fromEnvironment(env: NodeJS.ProcessEnv): ResolvedCredentials | undefined {
  const clientId = fromEnv(env, 'SWAPX_CLIENT_ID');
  const apiKey = fromEnv(env, 'SWAPX_API_KEY');
  if (clientId && apiKey)
    return { credentials: { kind: 'basic', clientId, apiKey }, source: 'env', origin: 'the environment (SWAPX_CLIENT_ID and SWAPX_API_KEY)' };
  if (clientId || apiKey) {
    const missing = clientId ? 'SWAPX_API_KEY' : 'SWAPX_CLIENT_ID';
    throw new AuthError(`${clientId ? 'SWAPX_CLIENT_ID' : 'SWAPX_API_KEY'} is set but ${missing} is not: set both for Basic auth, or neither`);
  }
  const token = fromEnv(env, 'SWAPX_TOKEN');
  if (token) return { credentials: { kind: 'bearer', token }, source: 'env', origin: 'the environment (SWAPX_TOKEN)' };
  return undefined;
}

function fromProfile(store: ConfigStore, profile: string): ResolvedCredentials | undefined {
  const stored = store.storedCredentials(profile);
  if (stored) return { credentials: stored, source: 'profile', origin: `profile '${profile}' (${store.file})` };
  return undefined;
}

/**
 * Why these credentials cannot go in an Authorization header, naming where they are set (never their value); undefined
 * when they can. A Bearer token is visible ASCII (RFC 6750); Basic's user id cannot hold ':' (RFC 7617). Without this
 * check the header is refused by the HTTP library and the run fails as a 'connection' error, or sends a wrong id.
 */
export function unsendableCredentials(credentials: Credentials): { field: 'token' | 'client id'; why: string } | undefined {
  if (credentials.kind === 'bearer') {
    if (/^[\x21-\x7e]+$/.test(credentials.token)) return undefined;
    return { field: 'token', why: 'holds a character no HTTP header can carry: a token is visible ASCII, with no spaces' };
  }
  if (credentials.clientId.includes(':')) return { field: 'client id', why: "holds a ':', which Basic authentication cannot carry (RFC 7617)" };
  return undefined;
}

/** `explicit`: named with --profile, whose credentials are the only ones read. */
export function loginHint(profile: string, explicit = false): string {
  const flag = profile === 'default' ? '' : ` --profile ${profile}`;
  if (explicit) return `no credentials in profile '${profile}': run 'swapx auth login${flag}' (with --profile, credentials in the environment are not used)`;
  return `no credentials: run 'swapx auth login${flag}', or set SWAPX_CLIENT_ID and SWAPX_API_KEY (or SWAPX_TOKEN)`;
}
