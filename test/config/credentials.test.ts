import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuthError } from '../../src/api/errors.js';
import { loginHint, resolveCredentials, unsendableCredentials } from '../../src/config/credentials.js';
import { ConfigStore } from '../../src/config/store.js';
import { tempDir } from '../helpers/cli.js';

/** A store holding these profiles. */
function storeWith(profiles: Record<string, unknown> = {}): ConfigStore {
  const dir = tempDir('swapx-credentials-');
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ profiles }), { mode: 0o600 });
  return new ConfigStore({ SWAPX_CONFIG_DIR: dir });
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AuthError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

const BASIC_ENV = 'the environment (SWAPX_CLIENT_ID and SWAPX_API_KEY)';

describe('resolveCredentials', () => {
  const store = storeWith({ default: { clientId: 'stored', apiKey: 'sk' }, work: { token: 'stored-token' }, empty: {} });

  it('reads Basic credentials from the environment, trimmed', () => {
    expect(resolveCredentials({ SWAPX_CLIENT_ID: ' acme\n', SWAPX_API_KEY: 'key\n' }, store, 'default')).toEqual({
      credentials: { kind: 'basic', clientId: 'acme', apiKey: 'key' },
      source: 'env',
      origin: BASIC_ENV,
    });
  });

  it('Basic credentials in the environment beat a token there', () => {
    expect(resolveCredentials({ SWAPX_CLIENT_ID: 'a', SWAPX_API_KEY: 'k', SWAPX_TOKEN: 't' }, store, 'work')?.credentials).toEqual({
      kind: 'basic',
      clientId: 'a',
      apiKey: 'k',
    });
  });

  it('refuses half of a Basic pair, naming the half that is missing', () => {
    expect(refusal(() => resolveCredentials({ SWAPX_CLIENT_ID: 'a' }, store, 'default'))).toBe(
      'SWAPX_CLIENT_ID is set but SWAPX_API_KEY is not: set both for Basic auth, or neither',
    );
    expect(refusal(() => resolveCredentials({ SWAPX_API_KEY: 'k', SWAPX_TOKEN: 't' }, store, 'default'))).toBe(
      'SWAPX_API_KEY is set but SWAPX_CLIENT_ID is not: set both for Basic auth, or neither',
    );
    expect(refusal(() => resolveCredentials({ SWAPX_API_KEY: 'k', SWAPX_CLIENT_ID: ' \n' }, store, 'default'))).toBe(
      'SWAPX_API_KEY is set but SWAPX_CLIENT_ID is not: set both for Basic auth, or neither',
    );
  });

  it('reads a token from the environment, before the profile', () => {
    expect(resolveCredentials({ SWAPX_TOKEN: ' tok\n' }, store, 'default')).toEqual({
      credentials: { kind: 'bearer', token: 'tok' },
      source: 'env',
      origin: 'the environment (SWAPX_TOKEN)',
    });
  });

  it('else the profile’s, naming the profile and its file', () => {
    expect(resolveCredentials({ SWAPX_TOKEN: '', SWAPX_CLIENT_ID: ' ' }, store, 'default')).toEqual({
      credentials: { kind: 'basic', clientId: 'stored', apiKey: 'sk' },
      source: 'profile',
      origin: `profile 'default' (${store.file})`,
    });
    expect(resolveCredentials({}, store, 'work')).toEqual({
      credentials: { kind: 'bearer', token: 'stored-token' },
      source: 'profile',
      origin: `profile 'work' (${store.file})`,
    });
  });

  it('none at all is undefined', () => {
    expect(resolveCredentials({}, store, 'empty')).toBeUndefined();
    expect(resolveCredentials({}, store, 'missing')).toBeUndefined();
  });

  it.each(['SWAPX_CLIENT_ID', 'SWAPX_API_KEY', 'SWAPX_TOKEN'])('refuses a control character inside %s', (name) => {
    const env = { SWAPX_CLIENT_ID: 'a', SWAPX_API_KEY: 'k', SWAPX_TOKEN: 't' };
    if (name === 'SWAPX_TOKEN') {
      delete (env as Record<string, string>).SWAPX_CLIENT_ID;
      delete (env as Record<string, string>).SWAPX_API_KEY;
    }
    for (const bad of ['a\nb', 'a\u0000b', 'a\u001fb', 'a\u007fb', 'a\rb', 'a\tb']) {
      expect(refusal(() => resolveCredentials({ ...env, [name]: bad }, store, 'default'))).toBe(
        `${name} contains a control character; set it to the bare value`,
      );
    }
  });

  it('takes a space, DEL’s neighbours and other characters that are not control characters', () => {
    const apiKey = 'a b~\u0080é';
    expect(resolveCredentials({ SWAPX_CLIENT_ID: 'a b', SWAPX_API_KEY: apiKey }, store, 'default')?.credentials).toEqual({
      kind: 'basic',
      clientId: 'a b',
      apiKey,
    });
  });

  it('refuses credentials no Authorization header can carry, naming where they are set', () => {
    expect(refusal(() => resolveCredentials({ SWAPX_TOKEN: 'a b' }, store, 'default'))).toBe(
      'SWAPX_TOKEN holds a character no HTTP header can carry: a token is visible ASCII, with no spaces',
    );
    expect(refusal(() => resolveCredentials({ SWAPX_CLIENT_ID: 'a:b', SWAPX_API_KEY: 'k' }, store, 'default'))).toBe(
      "SWAPX_CLIENT_ID holds a ':', which Basic authentication cannot carry (RFC 7617)",
    );
    const bad = storeWith({ p: { token: 'tök' }, q: { clientId: 'x:y', apiKey: 'k' } });
    expect(refusal(() => resolveCredentials({}, bad, 'p'))).toBe(
      "the token of profile 'p' holds a character no HTTP header can carry: a token is visible ASCII, with no spaces",
    );
    expect(refusal(() => resolveCredentials({}, bad, 'q'))).toBe(
      "the client id of profile 'q' holds a ':', which Basic authentication cannot carry (RFC 7617)",
    );
  });
});

describe('unsendableCredentials', () => {
  it('a token is visible ASCII, one character or more', () => {
    expect(unsendableCredentials({ kind: 'bearer', token: '!~azAZ09._-+/=' })).toBeUndefined();
    expect(unsendableCredentials({ kind: 'bearer', token: 'x' })).toBeUndefined();
    for (const token of ['', 'a b', 'a\u007f', 'é', 'a\u0020', '\u0021\u0080']) {
      expect(unsendableCredentials({ kind: 'bearer', token })).toEqual({
        field: 'token',
        why: 'holds a character no HTTP header can carry: a token is visible ASCII, with no spaces',
      });
    }
  });

  it('a Basic client id holds no colon; its key may', () => {
    expect(unsendableCredentials({ kind: 'basic', clientId: 'acme', apiKey: 'k:e:y' })).toBeUndefined();
    expect(unsendableCredentials({ kind: 'basic', clientId: 'ac:me', apiKey: 'k' })).toEqual({
      field: 'client id',
      why: "holds a ':', which Basic authentication cannot carry (RFC 7617)",
    });
  });
});

describe('loginHint', () => {
  it('names the profile unless it is the default', () => {
    expect(loginHint('default')).toBe("no credentials: run 'swapx auth login', or set SWAPX_CLIENT_ID and SWAPX_API_KEY (or SWAPX_TOKEN)");
    expect(loginHint('work')).toBe("no credentials: run 'swapx auth login --profile work', or set SWAPX_CLIENT_ID and SWAPX_API_KEY (or SWAPX_TOKEN)");
  });
});
