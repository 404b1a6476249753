import { describe, expect, it } from 'vitest';
import { authorizationHeader, maskSecret, redactAuthorization, secretsOf } from '../../src/api/credentials.js';

describe('credentials', () => {
  it('builds Basic base64(client_id:api_key) and Bearer headers', () => {
    expect(authorizationHeader({ kind: 'basic', clientId: 'acme', apiKey: 's3cret' })).toBe(`Basic ${Buffer.from('acme:s3cret').toString('base64')}`);
    expect(authorizationHeader({ kind: 'bearer', token: 'eyJhbGciOi.x.y' })).toBe('Bearer eyJhbGciOi.x.y');
  });
  it('redacts the credential but keeps the scheme', () => {
    expect(redactAuthorization('Basic YWNtZTpzM2NyZXQ=')).toBe('Basic [REDACTED]');
    expect(redactAuthorization('Bearer abc.def.ghi')).toBe('Bearer [REDACTED]');
    expect(redactAuthorization('garbage')).toBe('[REDACTED]');
    expect(redactAuthorization('  Bearer\tabc')).toBe('Bearer [REDACTED]');
    expect(redactAuthorization('Basic')).toBe('[REDACTED]');
    expect(redactAuthorization('')).toBe('[REDACTED]');
  });
  it('masks with at most 2 leading and 2 trailing characters', () => {
    expect(maskSecret('sk_live_1234567890')).toBe('sk…90');
    expect(maskSecret('abcdefgh')).toBe('a…h');
    expect(maskSecret('demo')).toBe('****');
    expect(maskSecret('abcdefghijkl')).toBe('ab…kl');
    expect(maskSecret('abcdefghijk')).toBe('a…k');
    expect(maskSecret('abcdefg')).toBe('****');
    expect(maskSecret('')).toBe('****');
  });
  it('lists the raw secret and its Basic encoding as secrets', () => {
    expect(secretsOf({ kind: 'basic', clientId: 'a', apiKey: 'k' })).toEqual(['k', Buffer.from('a:k').toString('base64')]);
    expect(secretsOf({ kind: 'basic', clientId: 'é', apiKey: 'ü' })).toEqual(['ü', Buffer.from('é:ü', 'utf8').toString('base64')]);
    expect(secretsOf({ kind: 'bearer', token: 'tok' })).toEqual(['tok']);
  });
});
