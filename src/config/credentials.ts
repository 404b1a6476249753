/** Which credentials a command uses, and where they come from: environment beats the stored profile. */
import { AuthError } from '../api/errors.js';
import type { Credentials } from '../api/credentials.js';
import type { ConfigStore } from './store.js';

export interface ResolvedCredentials {
  credentials: Credentials;
  source: 'env' | 'profile';
  /** e.g. "SWAPX_CLIENT_ID/SWAPX_API_KEY" or "profile default (/path/config.json)" */
  origin: string;
}

export function resolveCredentials(env: NodeJS.ProcessEnv, store: ConfigStore, profile: string): ResolvedCredentials | undefined {
  const clientId = env.SWAPX_CLIENT_ID || undefined;
  const apiKey = env.SWAPX_API_KEY || undefined;
  if (clientId && apiKey) return { credentials: { kind: 'basic', clientId, apiKey }, source: 'env', origin: 'SWAPX_CLIENT_ID and SWAPX_API_KEY' };
  if (clientId || apiKey) {
    const missing = clientId ? 'SWAPX_API_KEY' : 'SWAPX_CLIENT_ID';
    throw new AuthError(`${clientId ? 'SWAPX_CLIENT_ID' : 'SWAPX_API_KEY'} is set but ${missing} is not: set both for Basic auth, or neither`);
  }
  if (env.SWAPX_TOKEN) return { credentials: { kind: 'bearer', token: env.SWAPX_TOKEN }, source: 'env', origin: 'SWAPX_TOKEN' };
  const stored = store.storedCredentials(profile);
  if (stored) return { credentials: stored, source: 'profile', origin: `profile '${profile}' (${store.file})` };
  return undefined;
}

export function loginHint(profile: string): string {
  const flag = profile === 'default' ? '' : ` --profile ${profile}`;
  return `no credentials: run 'swapx auth login${flag}', or set SWAPX_CLIENT_ID and SWAPX_API_KEY (or SWAPX_TOKEN)`;
}
