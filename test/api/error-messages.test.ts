/** Each error class and each part of the messages apiErrorFromResponse builds, one by one. */
import { describe, expect, it } from 'vitest';
import {
  AbortedError,
  ApiError,
  AuthError,
  ConnectionError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseFormatError,
  ServerError,
  SwapxError,
  TimeoutError,
  UsageError,
  ValidationError,
  WrappedError,
  apiErrorFromResponse,
} from '../../src/api/errors.js';
import type { ProblemDetails } from '../../src/api/types.js';

const req = { method: 'GET', path: '/v1/x' };
const from = (status: number, body?: Record<string, unknown>, retryAfterMs?: number) =>
  apiErrorFromResponse(status, { h: '1' }, body as ProblemDetails | undefined, req, retryAfterMs);

describe('the error classes', () => {
  it('each is named for itself and keeps its message and cause', () => {
    const cause = new Error('under');
    const made: [SwapxError, string][] = [
      [new SwapxError('m', { cause }), 'SwapxError'],
      [new UsageError('m', { cause }), 'UsageError'],
      [new AuthError('m', { cause }), 'AuthError'],
      [new WrappedError('m', { cause }), 'WrappedError'],
      [new AbortedError('m', { cause }), 'AbortedError'],
      [new ConnectionError('m', req, { cause }), 'ConnectionError'],
      [new TimeoutError('m', req, { cause }), 'TimeoutError'],
    ];
    for (const [error, name] of made) {
      expect(error.name).toBe(name);
      expect(error.message).toBe('m');
      expect(error.cause).toBe(cause);
      expect(error).toBeInstanceOf(Error);
      expect(error).toBeInstanceOf(SwapxError);
    }
    expect(new TimeoutError('m', req)).toBeInstanceOf(ConnectionError);
    expect(new ConnectionError('m', req).request).toBe(req);
    expect(new SwapxError().message).toBe('');
  });

  it('an API error keeps status, headers, body and request', () => {
    const headers = { a: 'b' };
    const body = { title: 't' };
    for (const Class of [ApiError, ValidationError, PermissionDeniedError, NotFoundError, ServerError, ResponseFormatError]) {
      const error = new Class('m', 418, headers, body, req);
      expect(error.name).toBe(Class.name);
      expect(error.message).toBe('m');
      expect(error.status).toBe(418);
      expect(error.headers).toBe(headers);
      expect(error.body).toBe(body);
      expect(error.request).toBe(req);
    }
    const limited = new RateLimitError('m', 429, headers, body, req, 1234);
    expect(limited.retryAfterMs).toBe(1234);
    expect(limited.status).toBe(429);
    expect(limited.body).toBe(body);
    expect(new RateLimitError('m', 429, headers, undefined, req, undefined).retryAfterMs).toBeUndefined();
  });

  it('traceId is the body’s when it is text', () => {
    expect(new ApiError('m', 500, {}, { traceId: 'abc' }, req).traceId).toBe('abc');
    expect(new ApiError('m', 500, {}, { traceId: 7 } as unknown as ProblemDetails, req).traceId).toBeUndefined();
    expect(new ApiError('m', 500, {}, {}, req).traceId).toBeUndefined();
    expect(new ApiError('m', 500, {}, undefined, req).traceId).toBeUndefined();
  });

  it('a validation error’s errors and errorCode, when the body has them', () => {
    const make = (body: unknown) => new ValidationError('m', 400, {}, body as ProblemDetails, req);
    expect(make({ errors: { From: ['bad'] }, errorCode: 'E1' }).errors).toEqual({ From: ['bad'] });
    expect(make({ errors: { From: ['bad'] }, errorCode: 'E1' }).errorCode).toBe('E1');
    expect(make({ errors: 'bad', errorCode: 3 }).errors).toEqual({});
    expect(make({ errors: 'bad', errorCode: 3 }).errorCode).toBeUndefined();
    expect(make({ errors: null }).errors).toEqual({});
    expect(make(undefined).errors).toEqual({});
    expect(make(undefined).errorCode).toBeUndefined();
  });

  it('isUnconfirmed only when the body says true', () => {
    const make = (body: unknown) => new PermissionDeniedError('m', 403, {}, body as ProblemDetails, req);
    expect(make({ isUnconfirmed: true }).isUnconfirmed).toBe(true);
    expect(make({ isUnconfirmed: 'true' }).isUnconfirmed).toBe(false);
    expect(make({ isUnconfirmed: false }).isUnconfirmed).toBe(false);
    expect(make(undefined).isUnconfirmed).toBe(false);
  });
});

describe('apiErrorFromResponse', () => {
  it('every error keeps what it was made from', () => {
    const error = from(404, { title: 'x' });
    expect(error.status).toBe(404);
    expect(error.headers).toEqual({ h: '1' });
    expect(error.body).toEqual({ title: 'x' });
    expect(error.request).toBe(req);
  });

  it.each([
    [undefined, 'HTTP 500'],
    [{}, 'HTTP 500'],
    [{ title: 'T' }, 'T'],
    [{ detail: 'D' }, 'D'],
    [{ title: 'T', detail: 'D' }, 'T: D'],
    [{ title: '', detail: 'D' }, 'D'],
    [{ title: 5, detail: ['D'] }, 'HTTP 500'],
  ])('describes the body %j as %j', (body, described) => {
    expect(from(500, body).message).toBe(`server error HTTP 500 on GET /v1/x: ${described}`);
  });

  it('quotes at most 500 characters of a server’s text', () => {
    expect(from(500, { title: 'a'.repeat(500) }).message).toBe(`server error HTTP 500 on GET /v1/x: ${'a'.repeat(500)}`);
    expect(from(500, { detail: 'b'.repeat(501) }).message).toBe(`server error HTTP 500 on GET /v1/x: ${'b'.repeat(500)}… (501 characters)`);
    expect(from(500, { title: 'c'.repeat(1234) }).message).toBe(`server error HTTP 500 on GET /v1/x: ${'c'.repeat(500)}… (1,234 characters)`);
  });

  describe('400', () => {
    it('is a validation error naming the errorCode when it is text', () => {
      expect(from(400, { title: 'Bad', errorCode: 'E_X' })).toBeInstanceOf(ValidationError);
      expect(from(400, { title: 'Bad', errorCode: 'E_X' }).message).toBe('the API rejected the request [E_X]: Bad');
      expect(from(400, { title: 'Bad', errorCode: 12 }).message).toBe('the API rejected the request: Bad');
      expect(from(400).message).toBe('the API rejected the request: HTTP 400');
    });

    it.each([
      [{ From: ['is required.'] }, ' (From: is required.)'],
      [{ From: ['a', 'b'], To: ['c'] }, ' (From: a b; To: c)'],
      [{ From: 'one message' }, ' (From: one message)'],
      [{ From: [] }, ' (From)'],
      [{ From: [' ', '', 3, null] }, ' (From)'],
      [{ From: ['  x  '] }, ' (From:   x  )'],
      [{ '': ['whole request'] }, ' (whole request)'],
      [{ '': [] }, ''],
      [{}, ''],
      ['not an object', ''],
      [null, ''],
    ])('sums up errors %j as %j', (errors, summary) => {
      expect(from(400, { title: 'Bad', errors }).message).toBe(`the API rejected the request: Bad${summary}`);
    });

    it('quotes a long summary in part', () => {
      const message = from(400, { title: 'Bad', errors: { F: ['m'.repeat(600)] } }).message;
      expect(message).toBe(`the API rejected the request: Bad (F: ${'m'.repeat(497)}… (603 characters))`);
    });
  });

  it.each([401, 403])('%i is permission denied, its description without a last period', (status) => {
    const error = from(status, { title: 'Forbidden.', detail: 'Bad key..' });
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error.message).toBe(`permission denied (HTTP ${status}): Forbidden.: Bad key.; check the credentials with 'swapx auth status'`);
    expect(from(status, { isUnconfirmed: 'yes' }).message).toBe(
      `permission denied (HTTP ${status}): HTTP ${status}; check the credentials with 'swapx auth status'`,
    );
    expect(from(status, { isUnconfirmed: true }).message).toBe('the API account is not confirmed yet: ask the vendor to confirm it, then try again');
    // No body at all (a proxy's bare 401): permission denied all the same.
    expect(from(status).message).toBe(`permission denied (HTTP ${status}): HTTP ${status}; check the credentials with 'swapx auth status'`);
  });

  it('404 is not found', () => {
    const error = from(404);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe('not found: HTTP 404 (GET /v1/x)');
  });

  it('429 says the wait when the server gave one, in whole seconds up', () => {
    const error = from(429, undefined, 1001) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toBe('rate limited (HTTP 429) on GET /v1/x; the server asks to wait 2s');
    expect(error.retryAfterMs).toBe(1001);
    expect(from(429, undefined, 0).message).toBe('rate limited (HTTP 429) on GET /v1/x; the server asks to wait 0s');
    const unsaid = from(429) as RateLimitError;
    expect(unsaid.message).toBe('rate limited (HTTP 429) on GET /v1/x');
    expect(unsaid.retryAfterMs).toBeUndefined();
  });

  it.each([402, 405, 418, 499])('another 4xx (%i) is the request refused', (status) => {
    const error = from(status, { title: 'No' });
    expect(error.constructor).toBe(ApiError);
    expect(error.message).toBe(`the API refused the request (HTTP ${status}) on GET /v1/x: No`);
  });

  it.each([500, 502, 599, 399])('anything else (%i) is a server error', (status) => {
    const error = from(status, { title: 'Oops' });
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toBe(`server error HTTP ${status} on GET /v1/x: Oops`);
  });

  it.each([
    [{ traceId: 't1', timestamp: 'now' }, ' (traceId t1, at now)'],
    [{ traceId: 't1' }, ' (traceId t1)'],
    [{ timestamp: 'now' }, ' (at now)'],
    [{ traceId: 1, timestamp: 2 }, ''],
  ])('a server error names its trace %j', (body, suffix) => {
    expect(from(503, { title: 'T', ...body }).message).toBe(`server error HTTP 503 on GET /v1/x: T${suffix}`);
  });
});
