/**
 * The HTTP core: one keep-alive undici dispatcher, GET JSON with
 * per-attempt timeouts, retries, a shared throttle and redacted logging.
 */
import { TIMEOUT_MS } from './bounds.js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { linkAbort } from './abort.js';
import { checkBaseUrl } from './base-url.js';
import { authorizationHeader, secretsOf, type Credentials } from './credentials.js';
import { AbortedError, ApiError, ConnectionError, RateLimitError, RedirectError, TimeoutError, apiErrorFromResponse, type RequestInfo } from './errors.js';
import { MAX_NESTING } from './shape.js';
import { DEFAULT_RETRY_POLICY, decideRetry, errorCode, parseRetryAfter, serverNow, type RetryPolicy } from './retry.js';
import { NETWORK_WORDS, networkWords } from './network-words.js';
import { headerRecord, JSON_TYPE_RE, mediaType, notJsonError, parseJson, readBody, type JsonBytes } from './response.js';
import { Throttle } from './throttle.js';
import type { ProblemDetails } from './types.js';
import { VERSION } from '../version.js';

export type Query = Record<string, string | number | boolean | undefined>;

export interface AttemptLog {
  method: string;
  path: string;
  /** HTTP status, or the error code of a failed attempt */
  status: number | string;
  ms: number;
  attempt: number;
  attempts: number;
  /** set when another attempt follows */
  retryInMs?: number;
}

export interface HttpCoreOptions {
  baseUrl: string;
  credentials?: Credentials;
  /** per attempt, headers and body together; default 30 s */
  timeoutMs?: number;
  /** retries per request; default 5 */
  retries?: number;
  retryPolicy?: Partial<RetryPolicy>;
  /** keep-alive connections to the API; size it to the concurrency; default 8 */
  connections?: number;
  /** requests per second across all callers; default unlimited */
  requestsPerSecond?: number;
  /** the largest body accepted, in bytes; default 64 MiB */
  maxBodyBytes?: number;
  /** send credentials over plain http beyond loopback (a test server); default false */
  allowPlainHttp?: boolean;
  /** aborts every request and backoff sleep at once */
  signal?: AbortSignal;
  /** one call per attempt, for --verbose and statistics */
  onAttempt?: (log: AttemptLog) => void;
  dispatcher?: Dispatcher;
}

/** Far above any real window (a dense 30 minutes is a few MB), far below what would hurt the machine. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

/** Turns one response into the caller's value or an error; runs inside the attempt, so what it throws is judged for a retry. */
type Interpret<T> = (status: number, headers: Record<string, string>, body: Buffer, info: RequestInfo) => T;

/** A monotonic clock in ms. Not performance.now(): the global `performance` loads eleven more modules at start. */
function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

let transportLoaded = false;

/** Whether this process has loaded undici (on a first request): the CLI keeps the code cache of such a run. */
export function hasLoadedTransport(): boolean {
  return transportLoaded;
}

export class HttpCore {
  /** The server's clock (its Date header, whole seconds) at the last response, if it sent one. */
  serverDate: number | undefined;
  readonly baseUrl: URL;
  private readonly basePath: string;
  private dispatcher: Dispatcher | undefined;
  private undici: Promise<typeof import('./undici.js')> | undefined;
  private readonly headers: Record<string, string>;
  /** the credentials' secrets, blanked out of what the server sends back (redact) */
  private readonly secrets: readonly string[];
  private readonly policy: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;
  readonly throttle: Throttle;

  constructor(private readonly options: HttpCoreOptions) {
    this.baseUrl = checkBaseUrl(options.baseUrl, options.credentials !== undefined, 'the base URL', options.allowPlainHttp === true);
    this.basePath = this.baseUrl.pathname.replace(/\/+$/, '');
    this.dispatcher = options.dispatcher;
    this.headers = { accept: 'application/json', 'user-agent': `swapx/${VERSION}` };
    if (options.credentials) this.headers.authorization = authorizationHeader(options.credentials);
    this.secrets = options.credentials ? secretsOf(options.credentials).filter((secret) => secret !== '') : [];
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retryPolicy, ...(options.retries === undefined ? {} : { retries: options.retries }) };
    this.timeoutMs = options.timeoutMs ?? TIMEOUT_MS.default;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.throttle = new Throttle(options.requestsPerSecond);
  }

  /** The path as sent, with the base URL's own path in front (http://host/prefix): what logs and errors show. */
  fullPath(pathWithQuery: string): string {
    return this.basePath + pathWithQuery;
  }

  /** Path and query, relative to the base URL. */
  static pathWithQuery(path: string, query?: Query): string {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(key, String(value));
    const qs = params.toString();
    return qs ? `${path}?${qs}` : path;
  }

  /**
   * GET a JSON document, with retries. `pathAndQuery` is encoded already (pathWithQuery), relative to the base URL;
   * the request and its errors name the same text, with the base URL's own path in front.
   * `signal` stops this request (and its backoff) as the client's signal stops all.
   */
  async getJson<T>(pathAndQuery: string, options: { signal?: AbortSignal } = {}): Promise<T> {
    return this.get(pathAndQuery, options, (status, headers, body, info) => this.interpret<T>(status, headers, body, info));
  }

  /**
   * GET a JSON document as the bytes the server sent, for a caller that parses them its own way (swap windows,
   * see client.ts): the same retries and errors as getJson, but a 2xx body is not parsed here. A 2xx whose content
   * type is not JSON is refused as getJson refuses it; if the caller finds the bytes are not JSON, `notJsonError` says so in the same words.
   */
  async getJsonBytes(pathAndQuery: string, options: { signal?: AbortSignal } = {}): Promise<JsonBytes> {
    return this.get(pathAndQuery, options, (status, headers, bytes, info) => {
      if (status >= 300) return this.interpret<never>(status, headers, bytes, info);
      if (!JSON_TYPE_RE.test(mediaType(headers) || 'application/json')) throw notJsonError(status, headers, info);
      return { bytes, notJson: () => notJsonError(status, headers, info) };
    });
  }

  private async get<T>(pathAndQuery: string, options: { signal?: AbortSignal }, read: Interpret<T>): Promise<T> {
    const info: RequestInfo = { method: 'GET', path: this.fullPath(pathAndQuery) };
    const attempts = this.policy.retries + 1;
    // A signal of this request's own: its backoff sleep and throttle wait listen there, not on the shared ones.
    const linked = linkAbort([this.options.signal, options.signal]);
    try {
      return await this.withRetries<T>(info, attempts, linked.controller.signal, read);
    } finally {
      linked.dispose();
    }
  }

  private async withRetries<T>(info: RequestInfo, attempts: number, stop: AbortSignal, read: Interpret<T>): Promise<T> {
    // The throttle's wait and the backoff sleep fail only when `stop` aborts them.
    const interrupted = (error: unknown): never => {
      throw new AbortedError('interrupted', { cause: error });
    };
    for (let retriesDone = 0; ; retriesDone += 1) {
      if (stop.aborted) throw new AbortedError('interrupted');
      await this.throttle.acquire(stop).catch(interrupted);
      const started = nowMs();
      try {
        const result = await this.attempt<T>(info, stop, read);
        this.options.onAttempt?.({ ...info, status: 200, ms: nowMs() - started, attempt: retriesDone + 1, attempts });
        return result;
      } catch (error) {
        if (error instanceof AbortedError) throw error;
        const status = error instanceof ApiError ? error.status : error instanceof TimeoutError ? 'timed out' : networkWords(errorCode(error));
        const decision = decideRetry(error, retriesDone, this.policy);
        const ms = nowMs() - started;
        if (!decision.retry) {
          this.options.onAttempt?.({ ...info, status, ms, attempt: retriesDone + 1, attempts });
          throw decision.error;
        }
        this.options.onAttempt?.({ ...info, status, ms, attempt: retriesDone + 1, attempts, retryInMs: decision.delayMs });
        if (error instanceof RateLimitError) this.throttle.pauseFor(decision.delayMs);
        await sleep(decision.delayMs, undefined, { signal: stop }).catch(interrupted);
      }
    }
  }

  /** undici loads on the first request: commands that send none start faster. */
  private async transport(): Promise<{ request: typeof import('./undici.js')['request']; dispatcher: Dispatcher }> {
    this.undici ??= import('./undici.js');
    transportLoaded = true;
    const undici = await this.undici;
    this.dispatcher ??= new undici.Agent({ connections: this.options.connections ?? 8, keepAliveTimeout: 10_000, pipelining: 1 });
    return { request: undici.request, dispatcher: this.dispatcher };
  }

  private async attempt<T>(info: RequestInfo, stop: AbortSignal, read: Interpret<T>): Promise<T> {
    const { request, dispatcher } = await this.transport();
    const url = new URL(info.path, this.baseUrl);
    // One controller per attempt: aborted by its timer, or by the caller's stop.
    const linked = linkAbort([stop]);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      linked.controller.abort();
    }, this.timeoutMs);
    const signal = linked.controller.signal;
    const fail = (error: unknown): never => {
      if (stop.aborted) throw new AbortedError('interrupted', { cause: error });
      if (timedOut) throw new TimeoutError(`request timed out after ${this.timeoutMs / 1000}s: ${info.method} ${info.path}`, info, { cause: error });
      const code = errorCode(error);
      const words = code === undefined ? undefined : NETWORK_WORDS[code];
      const why = words ?? (error instanceof Error ? error.message : String(error));
      throw new ConnectionError(`connection to ${url.host} failed: ${why}`, info, { cause: error });
    };
    try {
      let response: Dispatcher.ResponseData;
      try {
        response = await request(url, { method: 'GET', headers: this.headers, dispatcher, signal });
      } catch (error) {
        return fail(error);
      }
      const headers = headerRecord(response.headers);
      const serverDate = headers.date === undefined ? Number.NaN : Date.parse(headers.date);
      if (Number.isFinite(serverDate)) this.serverDate = serverDate;
      let body: Buffer;
      try {
        body = await readBody(response, headers, info, this.maxBodyBytes);
      } catch (error) {
        if (error instanceof ApiError) throw error;
        return fail(error);
      }
      return read(response.statusCode, headers, body, info);
    } finally {
      clearTimeout(timer);
      linked.dispose();
    }
  }

  private interpret<T>(status: number, headers: Record<string, string>, body: Buffer, info: RequestInfo): T {
    const parsed = parseJson(body, mediaType(headers));
    // undici answers a 1xx itself: the status here is a final one, 200 or more.
    if (status < 300) {
      if (!parsed.ok) throw notJsonError(status, headers, info);
      return parsed.value as T;
    }
    if (status < 400) throw new RedirectError(status, headers, info, headers.location ? this.redact(headers.location) : undefined);
    const problem =
      parsed.ok && parsed.value && typeof parsed.value === 'object' && !Array.isArray(parsed.value) ? (parsed.value as ProblemDetails) : undefined;
    throw apiErrorFromResponse(status, headers, this.redact(problem), info, parseRetryAfter(headers['retry-after'], serverNow(headers)));
  }

  /**
   * What the server sent back with the credentials' secrets blanked out (a server that quotes the request in its
   * error body): an error's message goes to stderr and cron logs, and its body to library callers.
   */
  private redact<T>(value: T): T {
    if (this.secrets.length === 0) return value;
    // Bounded: a hostile body nested thousands deep is cut, not walked into a stack overflow.
    const walk = (v: unknown, depth: number): unknown => {
      if (typeof v === 'string') return this.secrets.reduce((text, secret) => text.split(secret).join('[REDACTED]'), v);
      if (v === null || typeof v !== 'object') return v;
      if (depth === MAX_NESTING) return '[nested too deep]';
      if (Array.isArray(v)) return v.map((inner) => walk(inner, depth + 1));
      return Object.fromEntries(Object.entries(v).map(([key, inner]) => [key, walk(inner, depth + 1)]));
    };
    return walk(value, 0) as T;
  }

  async close(): Promise<void> {
    // A dispatcher passed in belongs to the caller.
    if (this.dispatcher && this.options.dispatcher === undefined) await this.dispatcher.close();
  }
}
