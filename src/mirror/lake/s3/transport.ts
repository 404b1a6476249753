/**
 * One signed S3 request, with the retries of swapx's HTTP core: src/api/retry.ts's decideRetry judges each failed
 * attempt (5xx, 429, 408, resets, refusals, timeouts; a Retry-After wins) with the same policy, so the API and the
 * lake back off alike. Sent with undici through src/api/undici.ts, the parts swapx already loads for the API. Two
 * answers are retried at once, not backed off: a clock too far from the server's (RequestTimeTooSkewed: the request is
 * signed again on the server's time, as AWS's SDKs do) and expired temporary credentials (fetched anew once).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { linkAbort } from '../../../api/abort.js';
import { AbortedError, ConnectionError, TimeoutError } from '../../../api/errors.js';
import type { AttemptLog } from '../../../api/http.js';
import { NETWORK_WORDS } from '../../../api/network-words.js';
import { DEFAULT_RETRY_POLICY, decideRetry, errorCode, isRetryableStatus, type RetryPolicy } from '../../../api/retry.js';
import { S3Error, S3UnreachableError, redactSecrets } from './errors.js';
import { type AwsCredentials, encodeKeyPath, sha256Hex, signRequest, uriEncode } from './sigv4.js';
import { text } from './xml.js';

/** What a request needs of the credentials (credentials.ts finds them the AWS way). */
export interface CredentialProvider {
  /** where the credentials came from, as messages say it: "the environment (AWS_ACCESS_KEY_ID)", "profile 'work' (…)" */
  readonly source: string;
  /** the current credentials, fetched again when they expire within 5 minutes (or when forced: an ExpiredToken) */
  get(options?: { forceRefresh?: boolean }): Promise<AwsCredentials>;
  /** every secret and token handed out so far: what a message must never hold */
  secrets(): string[];
}

export interface S3Target {
  bucket: string;
  region: string;
  /** a custom endpoint (path-style addressing), or undefined for AWS's own (virtual-hosted) */
  endpoint: URL | undefined;
}

export interface TransportOptions {
  target: S3Target;
  credentials: CredentialProvider;
  /** retries after a first attempt; default the API's (5) */
  retries?: number;
  retryPolicy?: Partial<RetryPolicy>;
  /** per attempt, plus 1 s per MiB of body sent; default 30 s */
  timeoutMs?: number;
  signal?: AbortSignal;
  onAttempt?: (log: AttemptLog) => void;
  /** our clock (epoch ms); the tests' own */
  now?: () => number;
  dispatcher?: Dispatcher;
}

export interface S3Request {
  method: 'GET' | 'HEAD' | 'PUT' | 'POST' | 'DELETE';
  /** the whole key in the bucket; undefined for a request on the bucket (a list) */
  key?: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: Buffer;
  /**
   * Sent even once the run is stopped (its signal aborted), in one attempt: the abort of a multipart upload, without
   * which its parts would stay in the bucket, unseen and billed.
   */
  afterStop?: boolean;
}

export interface S3Response {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** whether an earlier attempt failed after it may have reached the server (a conditional put's 412 may be its own) */
  retried: boolean;
}

const EMPTY = Buffer.alloc(0);
const EMPTY_HASH = sha256Hex(EMPTY);

/** Where a request for `key` goes: path-style on a custom endpoint and for a dotted bucket (TLS), else virtual-hosted. */
export function requestUrl(target: S3Target, key: string | undefined, query: Record<string, string> = {}): URL {
  const path = key === undefined ? '' : `/${encodeKeyPath(key)}`;
  const qs = Object.entries(query)
    .map(([k, v]) => (v === '' ? uriEncode(k) : `${uriEncode(k)}=${uriEncode(v)}`))
    .join('&');
  const search = qs ? `?${qs}` : '';
  if (target.endpoint) {
    const base = target.endpoint.href.replace(/\/+$/, '');
    return new URL(`${base}/${target.bucket}${path}${search}`);
  }
  if (target.bucket.includes('.')) return new URL(`https://s3.${target.region}.amazonaws.com/${target.bucket}${path}${search}`);
  return new URL(`https://${target.bucket}.s3.${target.region}.amazonaws.com${path || '/'}${search}`);
}

/** The endpoint as messages name it: the custom one, or AWS's for the region. */
export function endpointName(target: S3Target): string {
  return target.endpoint ? target.endpoint.origin : `https://s3.${target.region}.amazonaws.com`;
}

export class S3Transport {
  /** the server's clock at its last answer (its Date header, epoch ms), and when that answer came (performance.now) */
  private serverDate: number | undefined;
  private serverDateAt = 0;
  /** server time minus ours, learned from a RequestTimeTooSkewed: what signing adds to our clock */
  private skewMs = 0;
  private dispatcher: Dispatcher | undefined;
  private undici: Promise<typeof import('../../../api/undici.js')> | undefined;
  private readonly policy: RetryPolicy;
  private readonly now: () => number;

  /**
   * The server's clock now: its last Date header moved on by the time since it came (a lease's end written from a
   * Date seen a renewal ago would end that much early, before its holder's own reckoning). Undefined before any answer.
   */
  serverNow(): number | undefined {
    return this.serverDate === undefined ? undefined : this.serverDate + (performance.now() - this.serverDateAt);
  }

  constructor(private readonly options: TransportOptions) {
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retryPolicy, ...(options.retries === undefined ? {} : { retries: options.retries }) };
    this.now = options.now ?? Date.now;
    this.dispatcher = options.dispatcher;
  }

  async send(request: S3Request): Promise<S3Response> {
    const url = requestUrl(this.options.target, request.key, request.query);
    const info = { method: request.method, path: `${url.pathname}${url.search}` };
    const attempts = request.afterStop ? 1 : this.policy.retries + 1;
    const stop = request.afterStop ? undefined : this.options.signal;
    let retried = false;
    let resigned = false;
    let refreshed = false;
    for (let retriesDone = 0; ; ) {
      if (stop?.aborted) throw new AbortedError('interrupted');
      const started = this.now();
      const log = (status: number | string, retryInMs?: number) =>
        this.options.onAttempt?.({ ...info, status, ms: this.now() - started, attempt: retriesDone + 1, attempts, retryInMs });
      try {
        const response = await this.attempt(request, url, info, stop);
        const code = response.status === 403 || response.status === 400 ? text(response.body.toString('utf8'), 'Code') : undefined;
        if (code === 'RequestTimeTooSkewed' && !resigned && response.headers.date) {
          resigned = true;
          this.skewMs = Date.parse(response.headers.date) - this.now();
          log(response.status, 0);
          continue;
        }
        if ((code === 'ExpiredToken' || code === 'TokenRefreshRequired') && !refreshed) {
          refreshed = true;
          await this.options.credentials.get({ forceRefresh: true });
          log(response.status, 0);
          continue;
        }
        log(response.status);
        return { ...response, retried };
      } catch (error) {
        if (error instanceof AbortedError || stop?.aborted) throw error instanceof AbortedError ? error : new AbortedError('interrupted', { cause: error });
        const decision = decideRetry(error, retriesDone, request.afterStop ? { ...this.policy, retries: 0 } : this.policy);
        const status =
          error instanceof S3Error ? error.status : error instanceof TimeoutError ? 'timed out' : (NETWORK_WORDS[errorCode(error) ?? ''] ?? 'failed');
        if (!decision.retry) {
          log(status);
          throw this.finalError(decision.error, info);
        }
        log(status, decision.delayMs);
        retried = true;
        retriesDone += 1;
        await sleep(decision.delayMs, undefined, stop ? { signal: stop } : undefined).catch((cause: unknown) => {
          throw new AbortedError('interrupted', { cause });
        });
      }
    }
  }

  /** A network failure that outlasted the retries names the endpoint (exit 1); anything else is as thrown. */
  private finalError(error: unknown, info: { method: string; path: string }): unknown {
    if (!(error instanceof ConnectionError)) return error;
    const endpoint = endpointName(this.options.target);
    const why = error instanceof TimeoutError ? 'no answer in time' : (NETWORK_WORDS[errorCode(error.cause) ?? ''] ?? 'connection failed');
    const tries = this.policy.retries === 0 ? '' : ` (${this.policy.retries + 1} attempts)`;
    return new S3UnreachableError(`the S3 endpoint ${endpoint} cannot be reached: ${why}${tries}`, endpoint, info, { cause: error });
  }

  private async transport(): Promise<{ request: typeof import('../../../api/undici.js')['request']; dispatcher: Dispatcher }> {
    this.undici ??= import('../../../api/undici.js');
    const undici = await this.undici;
    this.dispatcher ??= new undici.Agent({ connections: 8, keepAliveTimeout: 10_000, pipelining: 1 });
    return { request: undici.request, dispatcher: this.dispatcher };
  }

  /** One attempt: the answer, or a thrown S3Error (5xx, 429, 408: judged for a retry), ConnectionError or TimeoutError. */
  private async attempt(
    request: S3Request,
    url: URL,
    info: { method: string; path: string },
    stop: AbortSignal | undefined,
  ): Promise<Omit<S3Response, 'retried'>> {
    const { request: send, dispatcher } = await this.transport();
    const credentials = await this.options.credentials.get();
    const body = request.body ?? EMPTY;
    const headers = signRequest({
      method: request.method,
      url,
      headers: { ...request.headers, ...(request.body ? { 'content-length': String(body.length) } : {}) },
      payloadHash: body.length === 0 ? EMPTY_HASH : sha256Hex(body),
      region: this.options.target.region,
      service: 's3',
      credentials,
      now: this.now() + this.skewMs,
    });
    const timeoutMs = (this.options.timeoutMs ?? 30_000) + Math.ceil(body.length / 1048576) * 1000;
    const linked = linkAbort([stop]);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      linked.controller.abort();
    }, timeoutMs);
    const fail = (error: unknown): never => {
      if (stop?.aborted) throw new AbortedError('interrupted', { cause: error });
      if (timedOut) throw new TimeoutError(`no answer within ${timeoutMs / 1000}s: ${info.method} ${info.path}`, info, { cause: error });
      throw new ConnectionError(`connection to ${url.host} failed`, info, { cause: error });
    };
    try {
      let response: Dispatcher.ResponseData;
      let answer: Buffer;
      try {
        response = await send(url, { method: request.method, headers, body: request.body, dispatcher, signal: linked.controller.signal });
        answer = Buffer.from(await response.body.arrayBuffer());
      } catch (error) {
        return fail(error);
      }
      const responseHeaders: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) responseHeaders[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      }
      const date = responseHeaders.date === undefined ? Number.NaN : Date.parse(responseHeaders.date);
      if (Number.isFinite(date)) {
        this.serverDate = date;
        this.serverDateAt = performance.now();
      }
      if (isRetryableStatus(response.statusCode)) {
        const xml = answer.toString('utf8');
        const code = text(xml, 'Code');
        const said = redactSecrets(text(xml, 'Message') ?? '', [credentials.secretAccessKey, credentials.sessionToken]);
        const what = [code, said].filter(Boolean).join(': ');
        throw new S3Error(
          `the S3 server failed (HTTP ${response.statusCode}${what ? ` ${what}` : ''}) on ${info.method} ${info.path}`,
          response.statusCode,
          responseHeaders,
          code,
          info,
        );
      }
      return { status: response.statusCode, headers: responseHeaders, body: answer };
    } finally {
      clearTimeout(timer);
      linked.dispose();
    }
  }

  async close(): Promise<void> {
    if (this.dispatcher && this.options.dispatcher === undefined) await this.dispatcher.close();
  }
}
