import { describe, expect, it } from 'vitest';
import { NotFoundError, PermissionDeniedError, RateLimitError, ServerError, ValidationError, apiErrorFromResponse } from '../../src/api/errors.js';
import { NoMatchError } from '../../src/cli/errors.js';
import { exitCodeFor, messageFor } from '../../src/cli/exit-codes.js';

const req = { method: 'GET', path: '/v1/external/swaps?From=a&To=b' };

describe('apiErrorFromResponse', () => {
  it('each error is named for its class, as stack traces and logs show it', () => {
    expect(apiErrorFromResponse(429, {}, undefined, req).name).toBe('RateLimitError');
    expect(apiErrorFromResponse(503, {}, undefined, req).name).toBe('ServerError');
    expect(new NoMatchError('no swap matches').name).toBe('NoMatchError');
  });
  it('400 is a validation error with the errors map and errorCode', () => {
    const error = apiErrorFromResponse(
      400,
      {},
      { title: 'One or more validation errors occurred.', status: 400, errors: { From: ['The From field is required.'] }, errorCode: 'ValidationFailed' },
      req,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toEqual({ From: ['The From field is required.'] });
    expect((error as ValidationError).errorCode).toBe('ValidationFailed');
    expect(error.message).toBe('the API rejected the request [ValidationFailed]: One or more validation errors occurred. (From: The From field is required.)');
    expect(exitCodeFor(error)).toBe(2);
  });
  it('403 is permission denied; isUnconfirmed says the account is not confirmed', () => {
    const denied = apiErrorFromResponse(403, {}, { title: 'Forbidden', detail: 'Invalid credentials.' }, req);
    expect(denied).toBeInstanceOf(PermissionDeniedError);
    expect(denied.message).toBe("permission denied (HTTP 403): Forbidden: Invalid credentials; check the credentials with 'swapx auth status'");
    const unconfirmed = apiErrorFromResponse(403, {}, { title: 'Forbidden', isUnconfirmed: true }, req);
    expect((unconfirmed as PermissionDeniedError).isUnconfirmed).toBe(true);
    expect(unconfirmed.message).toBe('the API account is not confirmed yet: ask the vendor to confirm it, then try again');
    expect(exitCodeFor(unconfirmed)).toBe(3);
  });
  it('404 is not found; exit 4 is for lookups that say so, a raw 404 is a failed run', () => {
    const error = apiErrorFromResponse(404, {}, { title: 'Not Found', detail: "Blockchain 'x' is not supported." }, req);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(exitCodeFor(error)).toBe(1);
    expect(exitCodeFor(new NoMatchError('no swap matches'))).toBe(4);
  });
  it('messages never carry a server terminal escape', () => {
    const error = apiErrorFromResponse(500, {}, { title: '\u001b]0;PWNED\u0007\u001b[2K\rfake: all good' }, req);
    expect(messageFor(error)).toBe('server error HTTP 500 on GET /v1/external/swaps?From=a&To=b: fake: all good');
  });
  it('429 is rate limited and carries the wait', () => {
    const error = apiErrorFromResponse(429, { 'retry-after': '5' }, undefined, req, 5000);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toBe('rate limited (HTTP 429) on GET /v1/external/swaps?From=a&To=b; the server asks to wait 5s');
    expect(exitCodeFor(error)).toBe(1);
  });
  it("a server's long title is quoted in part, with its length", () => {
    const error = apiErrorFromResponse(500, {}, { title: 'x'.repeat(3_000_000) }, req);
    expect(error.message).toBe(`server error HTTP 500 on GET /v1/external/swaps?From=a&To=b: ${'x'.repeat(500)}… (3,000,000 characters)`);
  });
  it('5xx shows traceId and timestamp of the default body', () => {
    const error = apiErrorFromResponse(
      500,
      {},
      { title: 'An unexpected error occurred.', status: 500, timestamp: '2026-11-21T10:00:00Z', traceId: '00-abc-def-00' },
      req,
    );
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toBe(
      'server error HTTP 500 on GET /v1/external/swaps?From=a&To=b: An unexpected error occurred. (traceId 00-abc-def-00, at 2026-11-21T10:00:00Z)',
    );
    expect(error.traceId).toBe('00-abc-def-00');
    expect(exitCodeFor(error)).toBe(1);
  });
});
