/** Which credentials a command uses, and where they come from: environment beats the stored profile. */
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

export function resolveCredentials(env: NodeJS.ProcessEnv, store: ConfigStore, profile: string): ResolvedCredentials | undefined {
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
  const stored = store.storedCredentials(profile);
  if (stored) return { credentials: stored, source: 'profile', origin: `profile '${profile}' (${store.file})` };
  return undefined;
}

export function loginHint(profile: string): string {
  const flag = profile === 'default' ? '' : ` --profile ${profile}`;
  return `no credentials: run 'swapx auth login${flag}', or set SWAPX_CLIENT_ID and SWAPX_API_KEY (or SWAPX_TOKEN)`;
}
