import { describe, expect, it } from 'vitest';
import { MOCK_BASE, useMockAgent } from '../helpers/mock-agent.js';
import { HttpCore, type AttemptLog } from '../../src/api/http.js';
import { AbortedError, ConnectionError, PermissionDeniedError, ResponseFormatError, ServerError, UsageError } from '../../src/api/errors.js';

const BASE = MOCK_BASE;
const mock = useMockAgent();

function core(extra: Partial<ConstructorParameters<typeof HttpCore>[0]> = {}, logs: AttemptLog[] = []) {
  return new HttpCore({
    baseUrl: BASE,
    credentials: { kind: 'basic', clientId: 'acme', apiKey: 'topsecret' },
    dispatcher: mock.agent,
    retryPolicy: { baseDelayMs: 1, maxDelayMs: 2 },
    onAttempt: (log) => logs.push(log),
    ...extra,
  });
}

describe('HttpCore', () => {
  it('sends Accept, User-Agent and the Basic header, and parses JSON', async () => {
    const pool = mock.agent.get(BASE);
    let seen: Record<string, string> = {};
    pool.intercept({ path: '/v1/external/chains', method: 'GET' }).reply(
      200,
      (opts) => {
        seen = opts.headers as Record<string, string>;
        return [{ blockchainId: 'ethereum' }];
      },
      { headers: { 'content-type': 'application/json' } },
    );
    await expect(core().getJson('/v1/external/chains')).resolves.toEqual([{ blockchainId: 'ethereum' }]);
    expect(seen.authorization).toBe(`Basic ${Buffer.from('acme:topsecret').toString('base64')}`);
    expect(seen.accept).toBe('application/json');
    expect(seen['user-agent']).toMatch(/^swapx\/\d+\.\d+\.\d+/);
  });

  it.each(['text/plain; charset=utf-8', 'text/json', 'application/problem+json', 'application/json'])('reads JSON served as %s', async (type) => {
    mock.agent
      .get(BASE)
      .intercept({ path: '/x', method: 'GET' })
      .reply(200, '[1,2]', { headers: { 'content-type': type } });
    await expect(core().getJson('/x')).resolves.toEqual([1, 2]);
  });

  it('names status and content type when a 200 is not JSON', async () => {
    mock.agent
      .get(BASE)
      .intercept({ path: '/x', method: 'GET' })
      .reply(200, '<html>oops</html>', { headers: { 'content-type': 'text/html' } });
    const error = await core()
      .getJson('/x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect((error as Error).message).toBe('the API answered HTTP 200 with a body that is not JSON (content type text/html, GET /x)');
  });

  it('retries 503 and then succeeds, logging each attempt', async () => {
    const logs: AttemptLog[] = [];
    const pool = mock.agent.get(BASE);
    pool.intercept({ path: '/x', method: 'GET' }).reply(503, { title: 'busy' }).times(2);
    pool.intercept({ path: '/x', method: 'GET' }).reply(200, []);
    await expect(core({}, logs).getJson('/x')).resolves.toEqual([]);
    expect(logs.map((l) => [l.status, l.attempt, l.retryInMs !== undefined])).toEqual([
      [503, 1, true],
      [503, 2, true],
      [200, 3, false],
    ]);
  });

  it('gives up after the retries with the server error', async () => {
    mock.agent.get(BASE).intercept({ path: '/x', method: 'GET' }).reply(500, { title: 'boom', traceId: 't-1' }).times(3);
    await expect(core({ retries: 2 }).getJson('/x')).rejects.toBeInstanceOf(ServerError);
  });

  it('honours Retry-After on 429', async () => {
    const pool = mock.agent.get(BASE);
    pool.intercept({ path: '/x', method: 'GET' }).reply(429, {}, { headers: { 'retry-after': '1' } });
    pool.intercept({ path: '/x', method: 'GET' }).reply(200, [1]);
    const logs: AttemptLog[] = [];
    await expect(core({}, logs).getJson('/x')).resolves.toEqual([1]);
    expect(logs[0]!.retryInMs).toBe(1000);
  });

  it('never retries 403', async () => {
    const logs: AttemptLog[] = [];
    mock.agent.get(BASE).intercept({ path: '/x', method: 'GET' }).reply(403, { title: 'Forbidden' });
    await expect(core({}, logs).getJson('/x')).rejects.toBeInstanceOf(PermissionDeniedError);
    expect(logs).toHaveLength(1);
  });

  it('retries connection errors and keeps the cause', async () => {
    mock.agent
      .get(BASE)
      .intercept({ path: '/x', method: 'GET' })
      .replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))
      .times(2);
    const error = await core({ retries: 1 })
      .getJson('/x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).cause).toBeDefined();
  });

  it('refuses a body over the cap', async () => {
    mock.agent
      .get(BASE)
      .intercept({ path: '/x', method: 'GET' })
      .reply(200, JSON.stringify('x'.repeat(2000)));
    await expect(core({ maxBodyBytes: 1000 }).getJson('/x')).rejects.toThrow(/larger than/);
  });

  it('does not follow redirects', async () => {
    mock.agent
      .get(BASE)
      .intercept({ path: '/x', method: 'GET' })
      .reply(302, '', { headers: { location: 'https://elsewhere.test/x' } });
    await expect(core().getJson('/x')).rejects.toThrow(
      'the API answered with a redirect (HTTP 302 to https://elsewhere.test/x); swapx does not follow redirects: use the final address as the base URL',
    );
  });

  it('stops at once when aborted during a backoff', async () => {
    mock.agent
      .get(BASE)
      .intercept({ path: '/x', method: 'GET' })
      .reply(503, {}, { headers: { 'retry-after': '30' } });
    const controller = new AbortController();
    const started = Date.now();
    const pending = core({ signal: controller.signal }).getJson('/x');
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(AbortedError);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('refuses credentials over plain http to a non-loopback host', () => {
    expect(() => core({ baseUrl: 'http://api.example.test' })).toThrow(UsageError);
    expect(() => core({ baseUrl: 'http://api.example.test' })).toThrow(
      'the base URL: refusing plain http to api.example.test: the API key would travel in clear text; use https://, or a loopback address, or for a test server set SWAPX_ALLOW_HTTP=1',
    );
    expect(() => core({ baseUrl: 'http://api.example.test', allowPlainHttp: true })).not.toThrow();
    expect(() => core({ baseUrl: 'http://127.0.0.1:8787' })).not.toThrow();
    expect(() => core({ baseUrl: 'http://localhost:8787' })).not.toThrow();
  });

  it('never puts the credential in an error', async () => {
    mock.agent.get(BASE).intercept({ path: '/x', method: 'GET' }).reply(500, { title: 'boom' }).times(10);
    const error = (await core({ retries: 0 })
      .getJson('/x')
      .catch((e: unknown) => e)) as Error;
    const text = `${error.message}\n${error.stack}\n${JSON.stringify(error)}`;
    expect(text).not.toContain('topsecret');
    expect(text).not.toContain(Buffer.from('acme:topsecret').toString('base64'));
  });
});
