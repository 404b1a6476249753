/**
 * Retry decisions at their edges: a Retry-After date read on the server's clock when it is skewed from ours,
 * a Retry-After of exactly the cap, plain errors that carry a retryable code, cause chains deep or cyclic.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, ConnectionError, RateLimitError, TimeoutError, apiErrorFromResponse } from '../../src/api/errors.js';
import { DEFAULT_RETRY_POLICY, backoffDelay, decideRetry, errorCode, isRetryableError, parseRetryAfter, serverNow } from '../../src/api/retry.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const req = { method: 'GET', path: '/v1/external/swaps' };
const statusError = (status: number, headers: Record<string, string> = {}) => apiErrorFromResponse(status, headers, undefined, req);
const coded = (code: unknown) => Object.assign(new Error('x'), { code });
const OURS = Date.parse('2026-11-21T10:00:00.250Z');

describe('a Retry-After date is a wait on the server clock', () => {
  it('a server five minutes ahead asking for 2 s is waited 2 s, not 302', () => {
    vi.spyOn(Date, 'now').mockReturnValue(OURS);
    const error = statusError(503, { date: 'Sat, 21 Nov 2026 10:05:00 GMT', 'retry-after': 'Sat, 21 Nov 2026 10:05:02 GMT' });
    expect(decideRetry(error, 0, DEFAULT_RETRY_POLICY, () => 0.5)).toEqual({ retry: true, delayMs: 2000 });
  });

  it('without a readable Date header, the wait is read on our clock', () => {
    vi.spyOn(Date, 'now').mockReturnValue(OURS);
    for (const date of [undefined, 'yesterday', '2026-11-21T10:05:00Z', 'Sat, 32 Nov 2026 10:05:00 GMT']) {
      const headers: Record<string, string> = { 'retry-after': 'Sat, 21 Nov 2026 10:00:30 GMT' };
      if (date !== undefined) headers.date = date;
      expect(decideRetry(statusError(503, headers), 0, DEFAULT_RETRY_POLICY, () => 0.5)).toEqual({ retry: true, delayMs: 29_750 });
    }
  });

  it('serverNow: the Date header (trimmed) when it is an IMF date, else our clock', () => {
    vi.spyOn(Date, 'now').mockReturnValue(OURS);
    expect(serverNow({ date: '  Sat, 21 Nov 2026 10:05:00 GMT ' })).toBe(Date.parse('2026-11-21T10:05:00Z'));
    expect(serverNow({})).toBe(OURS);
    expect(serverNow({ date: 'Sat, 21 Nov 2026 10:05:00 UTC' })).toBe(OURS);
    expect(serverNow({ date: 'x Sat, 21 Nov 2026 10:05:00 GMT' })).toBe(OURS);
    expect(serverNow({ date: 'Sat, 21 Nov 2026 10:05:00 GMT+0100' })).toBe(OURS);
    expect(serverNow({ date: 'Sat, 21 Nov 2026 25:05:00 GMT' })).toBe(OURS);
  });

  it('a date past the cap on the server clock gives up naming the wait in whole seconds, rounded up', () => {
    vi.spyOn(Date, 'now').mockReturnValue(OURS);
    const error = statusError(429, { 'retry-after': 'Sat, 21 Nov 2026 10:01:01 GMT' });
    const decision = decideRetry(error, 0, DEFAULT_RETRY_POLICY);
    expect(decision.retry).toBe(false);
    const limit = (decision as { error: RateLimitError }).error;
    expect(limit).toBeInstanceOf(RateLimitError);
    expect(limit.message).toBe('the server asks to wait 61s before the next request (Retry-After), longer than swapx waits on its own; try again later');
    expect(limit.retryAfterMs).toBe(60_750);
    expect([limit.status, limit.headers, limit.body, limit.request]).toEqual([error.status, error.headers, error.body, error.request]);
  });
});

describe('Retry-After against the cap', () => {
  it('exactly the cap is waited; a second more is refused, even when the retries are used up', () => {
    expect(decideRetry(statusError(429, { 'retry-after': '60' }), 0, DEFAULT_RETRY_POLICY)).toEqual({ retry: true, delayMs: 60_000 });
    const over = decideRetry(statusError(429, { 'retry-after': '61' }), 99, DEFAULT_RETRY_POLICY);
    expect((over as { error: unknown }).error).toBeInstanceOf(RateLimitError);
  });

  it('a Retry-After within the cap after the last retry gives up with the error itself', () => {
    const error = statusError(429, { 'retry-after': '1' });
    expect(decideRetry(error, DEFAULT_RETRY_POLICY.retries, DEFAULT_RETRY_POLICY)).toEqual({ retry: false, error });
    expect(decideRetry(error, DEFAULT_RETRY_POLICY.retries - 1, DEFAULT_RETRY_POLICY)).toEqual({ retry: true, delayMs: 1000 });
  });

  it('a Retry-After on an error that is not retried is ignored', () => {
    const error = statusError(400, { 'retry-after': '1000' });
    expect(decideRetry(error, 0, DEFAULT_RETRY_POLICY)).toEqual({ retry: false, error });
  });

  it('parseRetryAfter reads every weekday and month of an IMF date', () => {
    const now = Date.parse('2020-01-01T00:00:00Z');
    const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
    const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    for (let month = 0; month < 12; month++) {
      for (let day = 1; day <= 7; day++) {
        const at = Date.UTC(2026, month, day, 1, 2, 3);
        const text = `${days[new Date(at).getUTCDay()]}, 0${day} ${months[month]} 2026 01:02:03 GMT`;
        expect(parseRetryAfter(text, now)).toBe(at - now);
      }
    }
    expect(parseRetryAfter(' Sat, 21 Nov 2026 10:00:30 GMT ', Date.parse('2026-11-21T10:00:00Z'))).toBe(30_000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:30 GMT x', Date.parse('2026-11-21T10:00:00Z'))).toBeUndefined();
    expect(parseRetryAfter('Sat, 32 Nov 2026 10:00:30 GMT', Date.parse('2026-11-21T10:00:00Z'))).toBeUndefined();
    // Date.parse reads an offset after GMT; an IMF date has none, and the whole text must be one.
    expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:30 GMT+0100', Date.parse('2026-11-21T08:00:00Z'))).toBeUndefined();
    expect(parseRetryAfter('x7')).toBeUndefined();
    expect(parseRetryAfter('7x')).toBeUndefined();
  });
});

describe('what is retryable, at the edges', () => {
  it.each([
    'ECONNRESET',
    'ECONNREFUSED',
    'ECONNABORTED',
    'EPIPE',
    'ETIMEDOUT',
    'EAI_AGAIN',
    'ENETUNREACH',
    'ENETDOWN',
    'EHOSTUNREACH',
    'EHOSTDOWN',
    'UND_ERR_SOCKET',
    'UND_ERR_CONNECT_TIMEOUT',
    'UND_ERR_HEADERS_TIMEOUT',
    'UND_ERR_BODY_TIMEOUT',
    'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  ])('a connection failure caused by %s is retried; a plain Error with that code is not', (code) => {
    expect(isRetryableError(new ConnectionError('failed', req, { cause: coded(code) }))).toBe(true);
    expect(isRetryableError(coded(code))).toBe(false);
  });

  it('a connection failure with no code, or a code that is not text, is not retried; a timeout always is', () => {
    expect(isRetryableError(new ConnectionError('failed', req))).toBe(false);
    expect(isRetryableError(new ConnectionError('failed', req, { cause: coded(104) }))).toBe(false);
    expect(isRetryableError(new TimeoutError('slow', req))).toBe(true);
    expect(isRetryableError(undefined)).toBe(false);
    expect(isRetryableError(new ApiError('x', 503, {}, undefined, req))).toBe(true);
  });

  it('errorCode: the first code along the cause chain, at most five deep, and a cyclic chain ends', () => {
    const chain = (depth: number) => {
      let error: unknown = coded('ECONNRESET');
      for (let i = 0; i < depth; i++) error = new Error('wrap', { cause: error });
      return error;
    };
    expect(errorCode(chain(0))).toBe('ECONNRESET');
    expect(errorCode(chain(4))).toBe('ECONNRESET');
    expect(errorCode(chain(5))).toBeUndefined();
    expect(isRetryableError(new ConnectionError('failed', req, { cause: chain(3) }))).toBe(true);
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(errorCode(a)).toBeUndefined();
    expect(errorCode(Object.assign(new Error('outer'), { code: 'EPIPE', cause: coded('ECONNRESET') }))).toBe('EPIPE');
    expect(errorCode(undefined)).toBeUndefined();
  });
});

describe('the default policy', () => {
  it('backs off from 250 ms, doubling, up to 20 s, with Math.random for jitter', () => {
    expect(backoffDelay(0, DEFAULT_RETRY_POLICY, () => 0.999)).toBe(249);
    expect(backoffDelay(3, DEFAULT_RETRY_POLICY, () => 0.5)).toBe(1000);
    expect(backoffDelay(30, DEFAULT_RETRY_POLICY, () => 0.5)).toBe(10_000);
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    expect(backoffDelay(1, DEFAULT_RETRY_POLICY)).toBe(250);
    expect(decideRetry(new TimeoutError('slow', req), 2, DEFAULT_RETRY_POLICY)).toEqual({ retry: true, delayMs: 500 });
  });

  it('retries five times', () => {
    const error = statusError(502);
    expect(decideRetry(error, 4, DEFAULT_RETRY_POLICY, () => 0).retry).toBe(true);
    expect(decideRetry(error, 5, DEFAULT_RETRY_POLICY, () => 0)).toEqual({ retry: false, error });
  });
});
