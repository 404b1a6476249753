/** The HTTP core's behaviours one by one: headers, paths, logs, errors and their words, redaction, the transport. */
import type http from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { MOCK_BASE, useMockAgent } from '../helpers/mock-agent.js';
import { useRouteServer } from '../helpers/route-server.js';
import { DEFAULT_MAX_BODY_BYTES, HttpCore, hasLoadedTransport, type AttemptLog, type HttpCoreOptions } from '../../src/api/http.js';
import {
  AbortedError,
  ApiError,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  RedirectError,
  ResponseFormatError,
  ServerError,
  TimeoutError,
  ValidationError,
} from '../../src/api/errors.js';
import { VERSION } from '../../src/version.js';

// Counts the abort links the core makes and disposes: a link left undisposed keeps a finished request's
// controller in the followers of the client's signal for as long as that signal lives (a leak per request).
const links = vi.hoisted(() => ({ made: 0, disposed: 0 }));
vi.mock('../../src/api/abort.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/api/abort.js')>();
  return {
    ...real,
    linkAbort: (signals: readonly (AbortSignal | undefined)[]) => {
      links.made += 1;
      const linked = real.linkAbort(signals);
      return {
        controller: linked.controller,
        dispose: () => {
          links.disposed += 1;
          linked.dispose();
        },
      };
    },
  };
});

const BASE = MOCK_BASE;
const SECRET = 'topsecret';
const BASIC = Buffer.from(`acme:${SECRET}`).toString('base64');

// A copy of the module of its own: another file of this worker may have sent a request through the shared one.
it('has not loaded the transport before a first request', async () => {
  vi.resetModules();
  const fresh = await import('../../src/api/http.js');
  expect(fresh.hasLoadedTransport()).toBe(false);
});

describe('HttpCore over a mock agent', () => {
  const mock = useMockAgent();
  const pool = () => mock.agent.get(BASE);

  function core(extra: Partial<HttpCoreOptions> = {}, logs: AttemptLog[] = []) {
    return new HttpCore({
      baseUrl: BASE,
      credentials: { kind: 'basic', clientId: 'acme', apiKey: SECRET },
      dispatcher: mock.agent,
      retryPolicy: { baseDelayMs: 1, maxDelayMs: 2 },
      onAttempt: (log) => logs.push(log),
      ...extra,
    });
  }

  async function failure(promise: Promise<unknown>): Promise<Error> {
    return promise.then(
      () => {
        throw new Error('expected a failure');
      },
      (error: unknown) => error as Error,
    );
  }

  const json = { headers: { 'content-type': 'application/json' } };

  it('sends Accept and its User-Agent, and no Authorization without credentials', async () => {
    let seen: Record<string, string> = {};
    pool()
      .intercept({ path: '/x', method: 'GET' })
      .reply(
        200,
        (opts) => {
          seen = opts.headers as Record<string, string>;
          return '[]';
        },
        json,
      );
    await core({ credentials: undefined }).getJson('/x');
    expect(seen).toEqual({ accept: 'application/json', 'user-agent': `swapx/${VERSION}` });
  });

  it('sends a Bearer token', async () => {
    let seen: Record<string, string> = {};
    pool()
      .intercept({ path: '/x', method: 'GET' })
      .reply(200, (opts) => {
        seen = opts.headers as Record<string, string>;
        return '[]';
      });
    await core({ credentials: { kind: 'bearer', token: 'tok' } }).getJson('/x');
    expect(seen.authorization).toBe('Bearer tok');
  });

  it('a base URL with a path: requests and errors name the path under it', async () => {
    const prefixed = core({ baseUrl: `${BASE}/prefix//` });
    expect(prefixed.baseUrl.href).toBe(`${BASE}/prefix//`);
    expect(prefixed.fullPath('/x?a=1')).toBe('/prefix/x?a=1');
    expect(core().fullPath('/x')).toBe('/x');
    pool().intercept({ path: '/prefix/x?a=1', method: 'GET' }).reply(404, { title: 'Gone' }, json);
    const error = await failure(prefixed.getJson('/x?a=1'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe('not found: Gone (GET /prefix/x?a=1)');
    expect((error as ApiError).request).toEqual({ method: 'GET', path: '/prefix/x?a=1' });
  });

  it('pathWithQuery leaves out undefined values and encodes the rest', () => {
    expect(HttpCore.pathWithQuery('/v1/s')).toBe('/v1/s');
    expect(HttpCore.pathWithQuery('/v1/s', {})).toBe('/v1/s');
    expect(HttpCore.pathWithQuery('/v1/s', { A: undefined })).toBe('/v1/s');
    expect(HttpCore.pathWithQuery('/v1/s', { From: '2026-01-01T00:00:00Z', Take: 0, On: false, X: undefined, Q: 'a b&c' })).toBe(
      '/v1/s?From=2026-01-01T00%3A00%3A00Z&Take=0&On=false&Q=a+b%26c',
    );
  });

  it('logs each attempt: status, time, its number, the number of attempts, and the wait before the next', async () => {
    const logs: AttemptLog[] = [];
    pool()
      .intercept({ path: '/x?a=1', method: 'GET' })
      .reply(503, {}, { headers: { 'retry-after': '0' } });
    pool().intercept({ path: '/x?a=1', method: 'GET' }).reply(204, '', json);
    const started = Date.now();
    await expect(core({ retries: 3 }, logs).getJson('/x?a=1')).rejects.toThrow('the API answered HTTP 204 with a body that is not JSON');
    const elapsed = Date.now() - started;
    expect(logs).toEqual([
      { method: 'GET', path: '/x?a=1', status: 503, ms: expect.any(Number), attempt: 1, attempts: 4, retryInMs: 0 },
      { method: 'GET', path: '/x?a=1', status: 204, ms: expect.any(Number), attempt: 2, attempts: 4 },
    ]);
    for (const log of logs) {
      expect(log.ms).toBeGreaterThanOrEqual(0);
      expect(log.ms).toBeLessThanOrEqual(elapsed + 1);
    }
  });

  it('logs a success as 200 with no wait', async () => {
    const logs: AttemptLog[] = [];
    pool().intercept({ path: '/x', method: 'GET' }).reply(200, '[1]', json);
    const started = Date.now();
    await expect(core({}, logs).getJson('/x')).resolves.toEqual([1]);
    const elapsed = Date.now() - started;
    expect(logs).toEqual([{ method: 'GET', path: '/x', status: 200, ms: expect.any(Number), attempt: 1, attempts: 6 }]);
    expect(logs[0]?.ms).toBeGreaterThanOrEqual(0);
    expect(logs[0]?.ms).toBeLessThanOrEqual(elapsed + 1);
  });

  it('logs the last attempt of a failure without a wait, and throws its error', async () => {
    const logs: AttemptLog[] = [];
    pool().intercept({ path: '/x', method: 'GET' }).reply(500, { title: 'boom' }, json).times(2);
    const error = await failure(core({ retries: 1 }, logs).getJson('/x'));
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toBe('server error HTTP 500 on GET /x: boom');
    expect(logs.map(({ ms: _, ...log }) => log)).toEqual([
      { method: 'GET', path: '/x', status: 500, attempt: 1, attempts: 2, retryInMs: expect.any(Number) },
      { method: 'GET', path: '/x', status: 500, attempt: 2, attempts: 2 },
    ]);
  });

  it('fails as it should with no one listening to its attempts', async () => {
    pool().intercept({ path: '/x', method: 'GET' }).reply(500, { title: 'boom' }, json);
    const error = await failure(core({ retries: 0, onAttempt: undefined }).getJson('/x'));
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toBe('server error HTTP 500 on GET /x: boom');
  });

  it('retries: 0 makes one attempt; retries beats the policy’s, which counts without it', async () => {
    const logs: AttemptLog[] = [];
    pool().intercept({ path: '/x', method: 'GET' }).reply(503, {}, json).times(10);
    await expect(core({ retries: 0 }, logs).getJson('/x')).rejects.toThrow(ServerError);
    expect(logs.map((log) => [log.attempt, log.attempts])).toEqual([[1, 1]]);
    logs.length = 0;
    await expect(core({ retries: 2, retryPolicy: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 } }, logs).getJson('/x')).rejects.toThrow(ServerError);
    expect(logs.map((log) => log.attempt)).toEqual([1, 2, 3]);
    logs.length = 0;
    await expect(core({ retryPolicy: { retries: 1, baseDelayMs: 1, maxDelayMs: 1 } }, logs).getJson('/x')).rejects.toThrow(ServerError);
    expect(logs.map((log) => log.attempt)).toEqual([1, 2]);
  });

  it.each([
    ['ECONNRESET', 'connection reset', 'connection reset'],
    ['EWHAT', 'EWHAT', 'the socket did something'],
    ['constructor', 'constructor', 'the socket did something'],
    [undefined, 'failed', 'the socket did something'],
  ])('a network error with code %s: logged as %j, its message says %j', async (code, logged, why) => {
    const logs: AttemptLog[] = [];
    pool()
      .intercept({ path: '/x', method: 'GET' })
      .replyWithError(Object.assign(new Error('the socket did something'), code === undefined ? {} : { code }));
    const error = await failure(core({ retries: 0 }, logs).getJson('/x'));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(error.message).toBe(`connection to api.example.test failed: ${why}`);
    expect((error as ConnectionError).request).toEqual({ method: 'GET', path: '/x' });
    expect((error.cause as Error).message).toBe('the socket did something');
    expect(logs.map((log) => log.status)).toEqual([logged]);
  });

  it('a 429 holds every request of the core for the wait the server asked; a 503 does not', async () => {
    const client = core();
    const pause = vi.spyOn(client.throttle, 'pauseFor');
    pool()
      .intercept({ path: '/x', method: 'GET' })
      .reply(503, {}, { headers: { 'retry-after': '0' } });
    pool()
      .intercept({ path: '/x', method: 'GET' })
      .reply(429, {}, { headers: { 'retry-after': '1' } });
    pool().intercept({ path: '/x', method: 'GET' }).reply(200, '[]', json);
    await expect(client.getJson('/x')).resolves.toEqual([]);
    expect(pause.mock.calls).toEqual([[1000]]);
  });

  it('a 429 it gives up on says the wait the server asked, on the server’s clock', async () => {
    const date = 'Sun, 06 Nov 1994 08:49:37 GMT';
    pool()
      .intercept({ path: '/x', method: 'GET' })
      .reply(429, { title: 'slow down' }, { headers: { date, 'retry-after': 'Sun, 06 Nov 1994 08:49:39 GMT' } });
    const error = await failure(core({ retries: 0 }).getJson('/x'));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(2000);
    expect(error.message).toBe('rate limited (HTTP 429) on GET /x; the server asks to wait 2s');
  });

  it('reads the server’s clock from its Date header, keeping the last one readable', async () => {
    const client = core();
    expect(client.serverDate).toBeUndefined();
    pool()
      .intercept({ path: '/x', method: 'GET' })
      .reply(200, '[]', { headers: { date: 'Sun, 06 Nov 1994 08:49:37 GMT' } });
    await client.getJson('/x');
    expect(client.serverDate).toBe(Date.parse('1994-11-06T08:49:37Z'));
    pool()
      .intercept({ path: '/x', method: 'GET' })
      .reply(200, '[]', { headers: { date: 'not a date' } });
    await client.getJson('/x');
    pool().intercept({ path: '/x', method: 'GET' }).reply(200, '[]');
    await client.getJson('/x');
    expect(client.serverDate).toBe(Date.parse('1994-11-06T08:49:37Z'));
  });

  it('a 2xx that is not JSON is refused, whatever its type says', async () => {
    pool().intercept({ path: '/x', method: 'GET' }).reply(200, '[1,', json);
    const error = await failure(core({ retries: 0 }).getJson('/x'));
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error.message).toBe('the API answered HTTP 200 with a body that is not JSON (content type application/json, GET /x)');
  });

  it('a 299 is read; a 300 and a 399 are redirects, with or without a Location', async () => {
    pool().intercept({ path: '/x', method: 'GET' }).reply(299, '{"a":1}', json);
    await expect(core().getJson('/x')).resolves.toEqual({ a: 1 });
    pool().intercept({ path: '/x', method: 'GET' }).reply(300, '');
    const plain = await failure(core().getJson('/x'));
    // A redirect is an answer not as promised; its class of its own carries where it pointed, for a shell to word.
    expect(plain).toBeInstanceOf(ResponseFormatError);
    expect(plain).toBeInstanceOf(RedirectError);
    expect((plain as RedirectError).location).toBeUndefined();
    expect(plain.message).toBe('the API answered with a redirect (HTTP 300); swapx does not follow redirects: use the final address as the base URL');
    expect((plain as ApiError).status).toBe(300);
    expect((plain as ApiError).request).toEqual({ method: 'GET', path: '/x' });
    expect((plain as ApiError).body).toBeUndefined();
    pool()
      .intercept({ path: '/x', method: 'GET' })
      .reply(399, '', { headers: { location: `https://elsewhere.test/x?key=${SECRET}` } });
    const moved = await failure(core().getJson('/x'));
    expect(moved.message).toBe(
      'the API answered with a redirect (HTTP 399 to https://elsewhere.test/x?key=[REDACTED]); swapx does not follow redirects: use the final address as the base URL',
    );
    expect((moved as ApiError).headers.location).toBe(`https://elsewhere.test/x?key=${SECRET}`);
    expect((moved as RedirectError).location).toBe('https://elsewhere.test/x?key=[REDACTED]');
  });

  it.each([
    ['an object', '{"title":"Teapot","detail":"short and stout"}', { title: 'Teapot', detail: 'short and stout' }],
    ['an array', '[{"title":"Teapot"}]', undefined],
    ['a string', '"Teapot"', undefined],
    ['null', 'null', undefined],
    ['not JSON', '<h1>Teapot</h1>', undefined],
  ])('an error body that is %s is the error’s problem details only when an object', async (_what, body, problem) => {
    pool().intercept({ path: '/x', method: 'GET' }).reply(418, body, json);
    const error = (await failure(core().getJson('/x'))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.body).toEqual(problem);
    expect(error.status).toBe(418);
  });

  it('blanks the credential out of what the server sends back, however deep', async () => {
    const body = {
      title: `bad key ${SECRET}`,
      detail: `Authorization: Basic ${BASIC}`,
      errors: { key: [`${SECRET} is not valid`, `again ${SECRET}${SECRET}`] },
      count: 1,
      ok: true,
      none: null,
      list: [[{ deep: SECRET }]],
    };
    pool().intercept({ path: '/x', method: 'GET' }).reply(400, body, json);
    const error = (await failure(core().getJson('/x'))) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.body).toEqual({
      title: 'bad key [REDACTED]',
      detail: 'Authorization: Basic [REDACTED]',
      errors: { key: ['[REDACTED] is not valid', 'again [REDACTED][REDACTED]'] },
      count: 1,
      ok: true,
      none: null,
      list: [[{ deep: '[REDACTED]' }]],
    });
    expect(error.message).toBe(
      'the API rejected the request: bad key [REDACTED]: Authorization: Basic [REDACTED] (key: [REDACTED] is not valid again [REDACTED][REDACTED])',
    );
  });

  /** {a: {a: ... {a: leaf}}}, `levels` objects deep. */
  const nested = (levels: number, leaf: unknown): unknown => {
    let value = leaf;
    for (let i = 0; i < levels; i++) value = { a: value };
    return value;
  };

  it('cuts a body nested deeper than 64 levels where it blanks the credential, not below', async () => {
    pool()
      .intercept({ path: '/x', method: 'GET' })
      .reply(500, JSON.stringify(nested(64, SECRET)), json);
    const kept = (await failure(core({ retries: 0 }).getJson('/x'))) as ApiError;
    expect(kept.body).toEqual(nested(64, '[REDACTED]'));
    pool()
      .intercept({ path: '/x', method: 'GET' })
      .reply(500, JSON.stringify(nested(65, SECRET)), json);
    const cut = (await failure(core({ retries: 0 }).getJson('/x'))) as ApiError;
    expect(cut.body).toEqual(nested(64, '[nested too deep]'));
  });

  it('cuts arrays nested deeper than 64 levels as it cuts objects', async () => {
    const arrays = (levels: number, leaf: unknown): unknown => {
      let value = leaf;
      for (let i = 0; i < levels; i++) value = [value];
      return value;
    };
    pool()
      .intercept({ path: '/x', method: 'GET' })
      .reply(500, JSON.stringify({ a: arrays(63, SECRET) }), json);
    const kept = (await failure(core({ retries: 0 }).getJson('/x'))) as ApiError;
    expect(kept.body).toEqual({ a: arrays(63, '[REDACTED]') });
    pool()
      .intercept({ path: '/x', method: 'GET' })
      .reply(500, JSON.stringify({ a: arrays(64, SECRET) }), json);
    const cut = (await failure(core({ retries: 0 }).getJson('/x'))) as ApiError;
    expect(cut.body).toEqual({ a: arrays(63, '[nested too deep]') });
  });

  it('without credentials, takes the body as it is, however deep', async () => {
    pool()
      .intercept({ path: '/x', method: 'GET' })
      .reply(500, JSON.stringify(nested(70, SECRET)), json);
    const error = (await failure(core({ retries: 0, credentials: undefined }).getJson('/x'))) as ApiError;
    expect(error.body).toEqual(nested(70, SECRET));
  });

  it('an empty secret blanks nothing', async () => {
    pool().intercept({ path: '/x', method: 'GET' }).reply(500, { title: 'boom' }, json);
    const error = await failure(core({ retries: 0, credentials: { kind: 'bearer', token: '' } }).getJson('/x'));
    expect(error.message).toBe('server error HTTP 500 on GET /x: boom');
  });

  it('refuses a body over the default cap of 64 MiB, as a response of the wrong format, once', async () => {
    expect(DEFAULT_MAX_BODY_BYTES).toBe(64 * 1024 * 1024);
    const logs: AttemptLog[] = [];
    pool()
      .intercept({ path: '/x', method: 'GET' })
      .reply(200, '[]', { headers: { 'content-length': String(DEFAULT_MAX_BODY_BYTES + 1) } });
    const error = await failure(core({}, logs).getJson('/x'));
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error.message).toBe('response body larger than 64 MiB (HTTP 200, GET /x); refusing to read it');
    expect(logs).toHaveLength(1);
  });

  it('a cap of its own', async () => {
    pool().intercept({ path: '/x', method: 'GET' }).reply(200, '[1,2,3]', json);
    const error = await failure(core({ maxBodyBytes: 6 }).getJson('/x'));
    expect(error).toBeInstanceOf(ResponseFormatError);
    pool().intercept({ path: '/x', method: 'GET' }).reply(200, '[1,2,3]', json);
    await expect(core({ maxBodyBytes: 7 }).getJson('/x')).resolves.toEqual([1, 2, 3]);
  });

  describe('getJsonBytes', () => {
    it('hands over the bytes of a 2xx JSON body, or of one with no type, and the error for bytes that are not JSON', async () => {
      pool().intercept({ path: '/x', method: 'GET' }).reply(200, '[1, 2]', json);
      const sent = await core().getJsonBytes('/x');
      expect(sent.bytes.toString()).toBe('[1, 2]');
      const notJson = sent.notJson();
      expect(notJson).toBeInstanceOf(ResponseFormatError);
      expect(notJson.message).toBe('the API answered HTTP 200 with a body that is not JSON (content type application/json, GET /x)');
      pool().intercept({ path: '/x', method: 'GET' }).reply(201, 'not even json');
      const untyped = await core().getJsonBytes('/x');
      expect(untyped.bytes.toString()).toBe('not even json');
      expect(untyped.notJson().message).toBe('the API answered HTTP 201 with a body that is not JSON (content type none, GET /x)');
    });

    it('refuses a 2xx of another type', async () => {
      pool()
        .intercept({ path: '/x', method: 'GET' })
        .reply(200, '[]', { headers: { 'content-type': 'text/html' } });
      const error = await failure(core().getJsonBytes('/x'));
      expect(error).toBeInstanceOf(ResponseFormatError);
      expect(error.message).toBe('the API answered HTTP 200 with a body that is not JSON (content type text/html, GET /x)');
    });

    it('a 299 is a body; a 300 or an error status fails as getJson fails', async () => {
      pool().intercept({ path: '/x', method: 'GET' }).reply(299, '[]', json);
      expect((await core().getJsonBytes('/x')).bytes.toString()).toBe('[]');
      pool().intercept({ path: '/x', method: 'GET' }).reply(300, '[]', json);
      await expect(core().getJsonBytes('/x')).rejects.toThrow('the API answered with a redirect (HTTP 300)');
      pool().intercept({ path: '/x', method: 'GET' }).reply(404, { title: 'Nope' }, json);
      const error = await failure(core().getJsonBytes('/x'));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.message).toBe('not found: Nope (GET /x)');
    });
  });

  describe('stopping', () => {
    it('a core whose signal is aborted sends nothing', async () => {
      const logs: AttemptLog[] = [];
      const controller = new AbortController();
      controller.abort();
      const error = await failure(core({ signal: controller.signal }, logs).getJson('/x'));
      expect(error).toBeInstanceOf(AbortedError);
      expect(error.message).toBe('interrupted');
      // Stopped before any attempt: no transport error behind it.
      expect(error.cause).toBeUndefined();
      expect(logs).toEqual([]);
    });

    it('a request whose own signal is aborted sends nothing', async () => {
      const logs: AttemptLog[] = [];
      const error = await failure(core({}, logs).getJson('/x', { signal: AbortSignal.abort() }));
      expect(error).toBeInstanceOf(AbortedError);
      expect(logs).toEqual([]);
    });

    it('a request aborted during its backoff ends at once, interrupted', async () => {
      pool()
        .intercept({ path: '/x', method: 'GET' })
        .reply(503, {}, { headers: { 'retry-after': '30' } });
      const controller = new AbortController();
      const pending = core().getJson('/x', { signal: controller.signal });
      setTimeout(() => controller.abort(), 30);
      const error = await failure(pending);
      expect(error).toBeInstanceOf(AbortedError);
      expect(error.message).toBe('interrupted');
      expect((error.cause as Error).name).toBe('AbortError');
    });

    it('a request aborted while the throttle holds it ends at once, interrupted', async () => {
      pool().intercept({ path: '/x', method: 'GET' }).reply(200, '[]', json).times(2);
      const client = core({ requestsPerSecond: 0.1 });
      await client.getJson('/x');
      const controller = new AbortController();
      const started = Date.now();
      const pending = client.getJson('/x', { signal: controller.signal });
      setTimeout(() => controller.abort(), 30);
      const error = await failure(pending);
      expect(error).toBeInstanceOf(AbortedError);
      expect(error.message).toBe('interrupted');
      expect((error.cause as Error).name).toBe('AbortError');
      expect(Date.now() - started).toBeLessThan(5000);
    });

    it('spaces requests by the rate', async () => {
      pool().intercept({ path: '/x', method: 'GET' }).reply(200, '[]', json).times(3);
      const client = core({ requestsPerSecond: 20 });
      const started = Date.now();
      await Promise.all([client.getJson('/x'), client.getJson('/x'), client.getJson('/x')]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    });
  });

  it('disposes every abort link it makes: the request’s own and each attempt’s, on success, failure and abort', async () => {
    // Copies of the modules of their own, over the counting abort.js: another file of this worker may have loaded
    // http.js over the real one.
    vi.resetModules();
    const { HttpCore: Core } = await import('../../src/api/http.js');
    const fresh = await import('../../src/api/errors.js');
    const counted = (extra: Partial<HttpCoreOptions>) =>
      new Core({
        baseUrl: BASE,
        credentials: { kind: 'basic', clientId: 'acme', apiKey: SECRET },
        dispatcher: mock.agent,
        retryPolicy: { baseDelayMs: 1, maxDelayMs: 2 },
        ...extra,
      });
    const run = new AbortController();
    links.made = 0;
    links.disposed = 0;
    pool().intercept({ path: '/x', method: 'GET' }).reply(200, '[]', json);
    await counted({ signal: run.signal }).getJson('/x');
    expect(links).toEqual({ made: 2, disposed: 2 });
    pool().intercept({ path: '/x', method: 'GET' }).reply(500, {}, json).times(2);
    await expect(counted({ signal: run.signal, retries: 1 }).getJson('/x')).rejects.toThrow(fresh.ServerError);
    expect(links).toEqual({ made: 5, disposed: 5 });
    await expect(counted({ signal: run.signal }).getJson('/x', { signal: AbortSignal.abort() })).rejects.toThrow(fresh.AbortedError);
    expect(links).toEqual({ made: 6, disposed: 6 });
  });

  it('close leaves a dispatcher it was given open', async () => {
    const client = core();
    await client.close();
    pool().intercept({ path: '/x', method: 'GET' }).reply(200, '[7]', json);
    await expect(core().getJson('/x')).resolves.toEqual([7]);
    await expect(core({ dispatcher: undefined }).close()).resolves.toBeUndefined();
  });
});

describe('HttpCore over its own connections', () => {
  const held: http.ServerResponse[] = [];
  const sockets = new Set<unknown>();
  let peak = 0;
  const server = useRouteServer({
    '/ok': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', date: 'Sun, 06 Nov 1994 08:49:37 GMT' }).end('{"ok":true}');
    },
    // Holds each response until released: counts the connections open at once.
    '/hold': (req, res) => {
      sockets.add(req.socket);
      peak = Math.max(peak, sockets.size);
      req.socket.once('close', () => sockets.delete(req.socket));
      held.push(res);
    },
    '/hang': () => {},
    '/cut': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('[1,2');
      setTimeout(() => res.socket?.destroy(), 20);
    },
  });

  const own = (extra: Partial<HttpCoreOptions> = {}) => new HttpCore({ baseUrl: server.base, retries: 0, ...extra });

  async function holdPeak(connections: number | undefined): Promise<number> {
    const client = own(connections === undefined ? {} : { connections });
    peak = 0;
    const pending = Array.from({ length: 10 }, () => client.getJson('/hold/x'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const seen = peak;
    let released = 0;
    while (released < 10) {
      for (const res of held.splice(0)) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
        released += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await Promise.all(pending);
    await client.close();
    return seen;
  }

  it('loads undici on its first request, and closes its connections', async () => {
    const client = own();
    await expect(client.getJson('/ok/v1')).resolves.toEqual({ ok: true });
    expect(hasLoadedTransport()).toBe(true);
    expect(client.serverDate).toBe(Date.parse('1994-11-06T08:49:37Z'));
    await client.close();
    await expect(client.getJson('/ok/v1')).rejects.toThrow(ConnectionError);
  });

  it('opens at most 8 connections, or as many as asked', async () => {
    expect(await holdPeak(undefined)).toBe(8);
    expect(await holdPeak(2)).toBe(2);
  });

  it('times an attempt out, as a connection error that says after how long', async () => {
    const logs: AttemptLog[] = [];
    const error = (await own({ timeoutMs: 150, onAttempt: (log) => logs.push(log) })
      .getJson('/hang/x')
      .catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toBe('request timed out after 0.15s: GET /hang/x');
    expect((error as TimeoutError).request).toEqual({ method: 'GET', path: '/hang/x' });
    expect(logs.map((log) => log.status)).toEqual(['timed out']);
  });

  it('an abort while a request is out ends it at once, interrupted, not timed out, and logs no attempt', async () => {
    const logs: AttemptLog[] = [];
    const controller = new AbortController();
    const started = Date.now();
    const pending = own({ timeoutMs: 5000, onAttempt: (log) => logs.push(log) }).getJson('/hang/y', { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const error = (await pending.catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(AbortedError);
    expect(error.message).toBe('interrupted');
    expect((error.cause as Error).name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(logs).toEqual([]);
  });

  it('sends to plain http beyond loopback when it sends no credentials', async () => {
    const core = new HttpCore({ baseUrl: 'http://api.example.test' });
    expect(core.baseUrl.host).toBe('api.example.test');
    expect(() => new HttpCore({ baseUrl: 'http://api.example.test', credentials: { kind: 'bearer', token: 't' } })).toThrow(
      /^the base URL: refusing plain http/,
    );
  });

  it('a body cut short is a connection error in words', async () => {
    const error = (await own()
      .getJson('/cut/x')
      .catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(error.message).toMatch(new RegExp(`^connection to 127\\.0\\.0\\.1:${server.port} failed: `));
  });

  it('leaves no timer behind once a request is done', async () => {
    const client = own({ timeoutMs: 60_000 });
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    await client.getJson('/ok/a');
    const before = timers();
    for (let i = 0; i < 5; i++) await client.getJson('/ok/b');
    // A timer per attempt left running would keep the process up for its 60 s: five here.
    expect(timers() - before).toBeLessThan(3);
    await client.close();
  });
});
