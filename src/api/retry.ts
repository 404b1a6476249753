/**
 * Retry decisions in one place: what is retryable, how long to wait, and
 * when to give up instead of sleeping silently.
 */
import { RETRIES } from './bounds.js';
import { ApiError, ConnectionError, RateLimitError, TimeoutError } from './errors.js';

export interface RetryPolicy {
  /** retries after the first attempt */
  retries: number;
  /** first backoff ceiling; doubles per attempt */
  baseDelayMs: number;
  /** backoff ceiling */
  maxDelayMs: number;
  /** a server asking for a longer wait than this ends the request with a RateLimitError */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retries: RETRIES.default,
  baseDelayMs: 250,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
};

const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/**
 * Network failures a second attempt can outlast. Anything else — TLS verification, an unknown host,
 * a header undici refuses — is a configuration problem: retrying never helps and must not hide it.
 */
const RETRYABLE_CODES = new Set([
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
]);

export function isRetryableError(error: unknown): boolean {
  if (error instanceof ApiError) return isRetryableStatus(error.status);
  if (error instanceof TimeoutError) return true;
  if (error instanceof ConnectionError) return RETRYABLE_CODES.has(errorCode(error.cause) ?? '');
  return false;
}

export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** `Retry-After` as delay-seconds or an HTTP date; undefined when absent or unparsable. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date is IMF-fixdate (RFC 9110): Date.parse alone also reads 'abc 3000' as the year 3000.
  if (!IMF_FIXDATE.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

const IMF_FIXDATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * The server's clock as its Date header gives it, else ours: a Retry-After date is a wait on the server's clock,
 * and a server 5 minutes ahead asking for 2 s must not make us wait 302 s.
 */
export function serverNow(headers: Record<string, string | undefined>): number {
  const text = headers.date?.trim();
  const date = text !== undefined && IMF_FIXDATE.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? Date.now() : date;
}

/** Capped exponential backoff with full jitter. `attempt` is 0 for the first retry. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

export type RetryDecision = { retry: true; delayMs: number } | { retry: false; error: unknown };

/**
 * What to do after a failed attempt. `retriesDone` counts retries already made.
 * A server's Retry-After wins over the backoff and gets no jitter.
 */
export function decideRetry(error: unknown, retriesDone: number, policy: RetryPolicy, random: () => number = Math.random): RetryDecision {
  if (!isRetryableError(error)) return { retry: false, error };
  const retryAfterMs = error instanceof ApiError ? parseRetryAfter(error.headers['retry-after'], serverNow(error.headers)) : undefined;
  if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) {
    const seconds = Math.ceil(retryAfterMs / 1000);
    const base = error as ApiError;
    return {
      retry: false,
      error: new RateLimitError(
        `the server asks to wait ${seconds}s before the next request (Retry-After), longer than swapx waits on its own; try again later`,
        base.status,
        base.headers,
        base.body,
        base.request,
        retryAfterMs,
      ),
    };
  }
  if (retriesDone >= policy.retries) return { retry: false, error };
  if (retryAfterMs !== undefined) return { retry: true, delayMs: retryAfterMs };
  return { retry: true, delayMs: backoffDelay(retriesDone, policy, random) };
}
