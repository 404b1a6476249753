import { describe, expect, it } from 'vitest';
import { ApiError, ConnectionError, RateLimitError, TimeoutError, apiErrorFromResponse } from '../../src/api/errors.js';
import { DEFAULT_RETRY_POLICY, backoffDelay, decideRetry, isRetryableError, parseRetryAfter } from '../../src/api/retry.js';

const req = { method: 'GET', path: '/v1/external/chains' };
const statusError = (status: number, headers: Record<string, string> = {}) => apiErrorFromResponse(status, headers, undefined, req);

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('0')).toBe(0);
    expect(parseRetryAfter('7')).toBe(7000);
    expect(parseRetryAfter(' 120 ')).toBe(120_000);
  });
  it('reads an HTTP date relative to now', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 09:59:00 GMT', now)).toBe(0);
  });
  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter('abc 3000')).toBeUndefined();
    expect(parseRetryAfter('2026-11-21T10:00:30Z')).toBeUndefined();
    expect(parseRetryAfter('-5')).toBeUndefined();
    expect(parseRetryAfter('1.5')).toBeUndefined();
  });
});

describe('what is retryable', () => {
  it.each([408, 429, 500, 502, 503, 504])('status %i is retried', (status) => {
    expect(isRetryableError(statusError(status))).toBe(true);
  });
  it.each([400, 401, 403, 404, 409, 501])('status %i is not', (status) => {
    expect(isRetryableError(statusError(status))).toBe(false);
  });
  it('connection resets and timeouts are retried', () => {
    expect(isRetryableError(new ConnectionError('reset', req, { cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }) }))).toBe(true);
    expect(isRetryableError(new ConnectionError('refused', req, { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) }))).toBe(true);
    expect(isRetryableError(new TimeoutError('slow', req))).toBe(true);
  });
  it('TLS certificate failures and unknown hosts are not', () => {
    expect(isRetryableError(new ConnectionError('tls', req, { cause: Object.assign(new Error('x'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }) }))).toBe(false);
    expect(isRetryableError(new ConnectionError('tls', req, { cause: Object.assign(new Error('x'), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }) }))).toBe(false);
    expect(isRetryableError(new ConnectionError('dns', req, { cause: Object.assign(new Error('x'), { code: 'ENOTFOUND' }) }))).toBe(false);
    expect(isRetryableError(new ConnectionError('bad header', req, { cause: Object.assign(new Error('x'), { code: 'UND_ERR_INVALID_ARG' }) }))).toBe(false);
  });
  it('anything else is not', () => {
    expect(isRetryableError(new Error('bug'))).toBe(false);
  });
});

describe('backoff', () => {
  const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 };
  it('doubles the ceiling per attempt, with full jitter', () => {
    expect(backoffDelay(0, policy, () => 0.999)).toBe(99);
    expect(backoffDelay(1, policy, () => 0.5)).toBe(100);
    expect(backoffDelay(2, policy, () => 0.5)).toBe(200);
    expect(backoffDelay(0, policy, () => 0)).toBe(0);
  });
  it('is capped', () => {
    expect(backoffDelay(20, policy, () => 0.999)).toBe(999);
  });
});

describe('decideRetry', () => {
  const policy = { ...DEFAULT_RETRY_POLICY, retries: 2, baseDelayMs: 100, maxDelayMs: 1000 };
  it('retries with backoff until the retries are used', () => {
    expect(decideRetry(statusError(503), 0, policy, () => 0.5)).toEqual({ retry: true, delayMs: 50 });
    expect(decideRetry(statusError(503), 1, policy, () => 0.5)).toEqual({ retry: true, delayMs: 100 });
    const last = decideRetry(statusError(503), 2, policy);
    expect(last.retry).toBe(false);
  });
  it('honours Retry-After exactly, without jitter', () => {
    expect(decideRetry(statusError(429, { 'retry-after': '3' }), 0, policy, () => 0.1)).toEqual({ retry: true, delayMs: 3000 });
  });
  it('gives up with a rate-limit error naming the wait when Retry-After is over 60 s', () => {
    const decision = decideRetry(statusError(429, { 'retry-after': '61' }), 0, policy);
    expect(decision.retry).toBe(false);
    const error = (decision as { error: unknown }).error;
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(61_000);
    expect((error as Error).message).toBe(
      'the server asks to wait 61s before the next request (Retry-After), longer than swapx waits on its own; try again later',
    );
  });
  it('never retries a 400 or 403', () => {
    expect(decideRetry(statusError(400), 0, policy)).toEqual({ retry: false, error: expect.any(ApiError) });
    expect(decideRetry(statusError(403), 0, policy).retry).toBe(false);
  });
});
