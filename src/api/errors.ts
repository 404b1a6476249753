/**
 * One error hierarchy for everything the library can raise: bad input, missing
 * credentials, and the API's answers by meaning. Callers branch
 * on the class; the CLI maps classes to exit codes in one place
 * (src/cli/exit-codes.ts).
 */
import type { DefaultValidationProblemDetails, ProblemDetails, UnconfirmedProblemDetails, UnexpectedProblemDetails } from './types.js';

export class SwapxError extends Error {
  constructor(message?: string, options?: ErrorOptions) {
    super(message, options);
    // Every subclass is named for itself ('RateLimitError'), without repeating its name in a field.
    this.name = new.target.name;
  }
}

/** Bad input detected before any request is sent (exit 2). */
export class UsageError extends SwapxError {}

/**
 * What an export left cannot be continued (its bytes or its format's state are not what its manifest counts): nothing
 * was changed (exit 2). The shell says how to start over; `orElse`: the message already gives another way out.
 */
export class UnresumableError extends UsageError {
  constructor(
    message: string,
    readonly orElse = false,
  ) {
    super(message);
  }
}

/** No credentials, or credentials that cannot be used (exit 3). */
export class AuthError extends SwapxError {}

/** Adds context to its cause (which window, which step); the exit code follows the cause. */
export class WrappedError extends SwapxError {}

/** Where an API error came from: enough to name the request, never the credential. */
export interface RequestInfo {
  method: string;
  /** path and query, relative to the base URL */
  path: string;
}

export class ApiError extends SwapxError {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: ProblemDetails | undefined;
  readonly request: RequestInfo;

  constructor(message: string, status: number, headers: Record<string, string>, body: ProblemDetails | undefined, request: RequestInfo) {
    super(message);
    this.status = status;
    this.headers = headers;
    this.body = body;
    this.request = request;
  }

  /** traceId of an UnexpectedProblemDetails body, or of an ASP.NET body that carries one. */
  get traceId(): string | undefined {
    const id = this.body?.traceId;
    return typeof id === 'string' ? id : undefined;
  }
}

export class ValidationError extends ApiError {
  get errors(): Record<string, string[]> {
    const errors = (this.body as DefaultValidationProblemDetails | undefined)?.errors;
    return errors && typeof errors === 'object' ? errors : {};
  }
  get errorCode(): string | undefined {
    const code = (this.body as DefaultValidationProblemDetails | undefined)?.errorCode;
    return typeof code === 'string' ? code : undefined;
  }
}

export class PermissionDeniedError extends ApiError {
  get isUnconfirmed(): boolean {
    return (this.body as UnconfirmedProblemDetails | undefined)?.isUnconfirmed === true;
  }
}

export class NotFoundError extends ApiError {}

export class RateLimitError extends ApiError {
  /** The wait the server asked for, in ms, when it said. */
  readonly retryAfterMs: number | undefined;
  constructor(
    message: string,
    status: number,
    headers: Record<string, string>,
    body: ProblemDetails | undefined,
    request: RequestInfo,
    retryAfterMs: number | undefined,
  ) {
    super(message, status, headers, body, request);
    this.retryAfterMs = retryAfterMs;
  }
}

export class ServerError extends ApiError {}

/** A 2xx whose body is not what the API promises (not JSON, wrong shape, too large). */
export class ResponseFormatError extends ApiError {}

/**
 * A 3xx: swapx follows no redirect (it would send the credentials on to wherever it points). `location` is where it
 * pointed, credentials in its query redacted, when the server said.
 */
export class RedirectError extends ResponseFormatError {
  constructor(
    status: number,
    headers: Record<string, string>,
    request: RequestInfo,
    readonly location: string | undefined,
  ) {
    const where = location ? ` to ${location}` : '';
    super(
      `the API answered with a redirect (HTTP ${status}${where}); swapx does not follow redirects: use the final address as the base URL`,
      status,
      headers,
      undefined,
      request,
    );
  }
}

/** Network failure: refused, reset, DNS, TLS, truncated body. Keeps its cause. */
export class ConnectionError extends SwapxError {
  readonly request: RequestInfo;
  constructor(message: string, request: RequestInfo, options?: { cause?: unknown }) {
    super(message, options);
    this.request = request;
  }
}

export class TimeoutError extends ConnectionError {}

/** The user asked to stop (Ctrl-C / SIGTERM). */
export class AbortedError extends SwapxError {}

/** A server's text as a message quotes it: at most this many characters (a 3 MB title is not an error line). */
const QUOTED_MAX = 500;

function quoted(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  return text.length > QUOTED_MAX ? `${text.slice(0, QUOTED_MAX)}… (${text.length.toLocaleString('en-US')} characters)` : text;
}

function describeBody(status: number, body: ProblemDetails | undefined): string {
  if (!body) return `HTTP ${status}`;
  const title = quoted(body.title);
  const detail = quoted(body.detail);
  return [title, detail].filter(Boolean).join(': ') || `HTTP ${status}`;
}

function validationSummary(body: DefaultValidationProblemDetails | undefined): string {
  const errors = body?.errors;
  if (!errors || typeof errors !== 'object') return '';
  // A field without a message (an empty list, an empty string) is named alone, never as "field: ".
  const parts = Object.entries(errors).flatMap(([field, messages]) => {
    const said = (Array.isArray(messages) ? messages : [messages]).filter((m) => typeof m === 'string' && m.trim() !== '').join(' ');
    return said ? [field ? `${field}: ${said}` : said] : field ? [field] : [];
  });
  return parts.length ? ` (${quoted(parts.join('; '))})` : '';
}

/** The one factory: an error of the right class from a non-2xx status and its parsed body. */
export function apiErrorFromResponse(
  status: number,
  headers: Record<string, string>,
  body: ProblemDetails | undefined,
  request: RequestInfo,
  retryAfterMs?: number,
): ApiError {
  const where = `${request.method} ${request.path}`;
  const described = describeBody(status, body);
  if (status === 400) {
    const code = typeof body?.errorCode === 'string' ? ` [${body.errorCode}]` : '';
    return new ValidationError(`the API rejected the request${code}: ${described}${validationSummary(body)}`, status, headers, body, request);
  }
  if (status === 401 || status === 403) {
    const unconfirmed = (body as UnconfirmedProblemDetails | undefined)?.isUnconfirmed === true;
    const message = unconfirmed
      ? 'the API account is not confirmed yet: ask the vendor to confirm it, then try again'
      : `permission denied (HTTP ${status}): ${described.replace(/\.$/, '')}; check the credentials with 'swapx auth status'`;
    return new PermissionDeniedError(message, status, headers, body, request);
  }
  if (status === 404) return new NotFoundError(`not found: ${described} (${where})`, status, headers, body, request);
  if (status === 429) {
    const wait = retryAfterMs === undefined ? '' : `; the server asks to wait ${Math.ceil(retryAfterMs / 1000)}s`;
    return new RateLimitError(`rate limited (HTTP 429) on ${where}${wait}`, status, headers, body, request, retryAfterMs);
  }
  // Another 4xx (the spec documents none) is the request refused, not the server failing.
  if (status >= 400 && status < 500)
    return new ApiError(`the API refused the request (HTTP ${status}) on ${where}: ${described}`, status, headers, body, request);
  const unexpected = body as UnexpectedProblemDetails | undefined;
  const trace = [
    typeof unexpected?.traceId === 'string' ? `traceId ${unexpected.traceId}` : '',
    typeof unexpected?.timestamp === 'string' ? `at ${unexpected.timestamp}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const suffix = trace ? ` (${trace})` : '';
  return new ServerError(`server error HTTP ${status} on ${where}: ${described}${suffix}`, status, headers, body, request);
}
