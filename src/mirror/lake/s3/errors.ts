/**
 * What an object store's failures mean, as classes of the one hierarchy (src/api/errors.ts), so that
 * src/cli/exit-codes.ts maps them by the class they extend: a wrong key or a refusal is an AuthError (exit 3), a
 * bucket that is not there a UsageError naming it (exit 2), an endpoint that cannot be reached a ConnectionError
 * naming it (exit 1), any other answer an S3Error (an ApiError: exit 1, and retried by src/api/retry.ts when its
 * status is 5xx or 429). Each message is one line and holds no secret: the server's own words are quoted with the
 * credentials blanked out (redactSecrets).
 */
import { ApiError, AuthError, ConnectionError, SwapxError, UsageError, type RequestInfo } from '../../../api/errors.js';

/** An S3 answer that is an error: its status, and the code and message of its XML body when it has one. */
export class S3Error extends ApiError {
  /** S3's error code (NoSuchKey, SlowDown, …), when the body said */
  readonly code: string | undefined;
  constructor(message: string, status: number, headers: Record<string, string>, code: string | undefined, request: RequestInfo) {
    super(message, status, headers, undefined, request);
    this.code = code;
  }
}

/** A conditional put whose condition did not hold: the object was changed, or created, by another writer. */
export class PreconditionFailedError extends SwapxError {
  readonly key: string;
  constructor(message: string, key: string) {
    super(message);
    this.key = key;
  }
}

/** The credentials were refused: a key the server does not know, a wrong secret, an expired token; or none were found. */
export class S3CredentialsError extends AuthError {}

/** The credentials are valid but may not do this (AccessDenied). */
export class S3AccessDeniedError extends AuthError {}

export class NoSuchBucketError extends UsageError {
  readonly bucket: string;
  constructor(message: string, bucket: string) {
    super(message);
    this.bucket = bucket;
  }
}

/** The endpoint did not answer (refused, unreachable, timed out) after every retry. */
export class S3UnreachableError extends ConnectionError {
  readonly endpoint: string;
  constructor(message: string, endpoint: string, request: RequestInfo, options?: { cause?: unknown }) {
    super(message, request, options);
    this.endpoint = endpoint;
  }
}

/** `text` with each secret replaced: a server that quotes the request back must not print the session token. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join('[REDACTED]');
  return out;
}
