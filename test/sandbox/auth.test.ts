import { describe, expect, it } from 'vitest';
import { basic, get, swapsPath, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox({ clients: ['demo:demo', 'unconfirmed:x', 'acme:s3cr:et'], bearerTokens: ['tok-123'] });

const forbidden = (instance: string) => ({
  type: 'https://tools.ietf.org/html/rfc9110#section-15.5.4',
  title: 'Forbidden',
  status: 403,
  detail: expect.any(String),
  instance,
  errorCode: 'Forbidden',
});

describe('sandbox auth', () => {
  it.each([
    ['missing', null],
    ['wrong key', basic('demo', 'nope')],
    ['unknown client', basic('someone', 'demo')],
    ['not base64', 'Basic !!!'],
    ['no colon', `Basic ${Buffer.from('demo').toString('base64')}`],
    ['scheme only', 'Basic'],
    ['other scheme', 'Digest abc'],
    ['wrong bearer', 'Bearer demo-token'],
  ])('answers 403 DefaultProblemDetails when the credential is %s', async (_name, authorization) => {
    for (const path of ['/v1/external/chains', '/v1/external/bridges', '/v1/external/swaps/abc']) {
      const res = await get(sandbox(), path, { authorization });
      expect(res.status).toBe(403);
      expect(res.json).toStrictEqual(forbidden(path));
    }
  });

  it('answers 403 UnconfirmedProblemDetails for a configured unconfirmed client', async () => {
    const res = await get(sandbox(), '/v1/external/chains', { authorization: basic('unconfirmed', 'x') });
    expect(res.status).toBe(403);
    expect(res.json).toStrictEqual({ ...forbidden('/v1/external/chains'), errorCode: 'Unconfirmed', isUnconfirmed: true });
  });

  it('treats an unconfirmed client with the wrong key as plainly forbidden', async () => {
    const res = await get(sandbox(), '/v1/external/chains', { authorization: basic('unconfirmed', 'y') });
    expect(res.json).toStrictEqual(forbidden('/v1/external/chains'));
  });

  it('accepts Basic credentials, also with a colon in the key and any scheme case', async () => {
    expect((await get(sandbox(), '/v1/external/chains')).status).toBe(200);
    expect((await get(sandbox(), '/v1/external/chains', { authorization: basic('acme', 's3cr:et') })).status).toBe(200);
    const lower = `basic ${Buffer.from('demo:demo').toString('base64')}`;
    expect((await get(sandbox(), '/v1/external/chains', { authorization: lower })).status).toBe(200);
  });

  it('accepts a configured Bearer token', async () => {
    const res = await get(sandbox(), '/v1/external/chains', { authorization: 'Bearer tok-123' });
    expect(res.status).toBe(200);
  });

  it('checks auth before validation', async () => {
    const res = await get(sandbox(), '/v1/external/swaps?From=garbage', { authorization: null });
    expect(res.status).toBe(403);
    const valid = await get(sandbox(), swapsPath('2026-11-01T00:00:00Z', '2026-11-01T01:00:00Z'), { authorization: null });
    expect(valid.status).toBe(403);
  });
});
