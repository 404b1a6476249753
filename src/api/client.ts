/**
 * The typed client: one method per API operation, over the shared HTTP core.
 * This is what the package exports for library use: every method returns
 * values checked against the spec's shapes, and nothing that aliases a
 * response body. (The exporter and sync read windows their own way, through
 * the window reader: windows/read-window.ts.)
 */
import type { RequestInfo } from './errors.js';
import { HttpCore, type HttpCoreOptions, type Query } from './http.js';
import { PATHS } from './paths.js';
import { BRIDGE_SHAPE, CHAIN_SHAPE, checkObjects, checkSwaps, checkTokenPage } from './shape.js';
import type { Bridge, Chain, DateRangeFilter, Swap, TokenPage } from './types.js';
import { formatUtc } from '../util/time.js';

export type ClientOptions = HttpCoreOptions;

export interface SwapWindowQuery {
  from: Date | number | string;
  to: Date | number | string;
  /** server default: Withdrawn */
  filter?: DateRangeFilter;
}

function toTimeParam(value: Date | number | string): string {
  // A Date's number is its milliseconds.
  return typeof value === 'string' ? value : formatUtc(Number(value));
}

/** A window's query parameters, as listSwaps and the window reader send them. */
export function swapsQuery(query: SwapWindowQuery): Query {
  return { From: toTimeParam(query.from), To: toTimeParam(query.to), Filter: query.filter };
}

/** Per call: `signal` aborts this request and its retries. */
export interface CallOptions {
  signal?: AbortSignal;
}

export class SwapxClient {
  /**
   * The transport under every call (connections, throttle, retries), shared with the engines' window reader.
   * @internal Not part of the library: its declarations leave it out (stripInternal), so a user holds checked values only.
   */
  readonly http: HttpCore;

  constructor(options: ClientOptions) {
    this.http = new HttpCore(options);
  }

  /** The query encoded once: the request and any error name the same path. */
  private encode(path: string, query: Query | undefined): { relative: string; request: RequestInfo } {
    const relative = HttpCore.pathWithQuery(path, query);
    return { relative, request: { method: 'GET', path: this.http.fullPath(relative) } };
  }

  private async get<T>(path: string, query: Query | undefined, check: (body: unknown, request: RequestInfo) => T, options?: CallOptions): Promise<T> {
    const { relative, request } = this.encode(path, query);
    return check(await this.http.getJson<unknown>(relative, options), request);
  }

  /** GET /v1/external/swaps: swaps in a window of at most 30 minutes, both ends inclusive. */
  listSwaps(query: SwapWindowQuery, options?: CallOptions): Promise<Swap[]> {
    return this.get(PATHS.swaps, swapsQuery(query), checkSwaps, options);
  }

  /**
   * The server's clock: the Date header (whole seconds) of one small authenticated request, an empty window at
   * `at`. Undefined when the server sends none. Fails as listSwaps fails.
   */
  async serverTime(at: number, options?: CallOptions): Promise<number | undefined> {
    this.http.serverDate = undefined;
    await this.listSwaps({ from: at, to: at, filter: 'Completed' }, options);
    return this.http.serverDate;
  }

  /** GET /v1/external/swaps/{identifier}: by tx hash (either side) or swap id; [] when nothing matches. */
  async getSwaps(identifier: string, options?: CallOptions): Promise<Swap[]> {
    return this.get(PATHS.swap(identifier), undefined, checkSwaps, options);
  }

  /** GET /v1/external/chains */
  listChains(options?: CallOptions): Promise<Chain[]> {
    return this.get(PATHS.chains, undefined, (body, request) => checkObjects<Chain>(body, 'chains', request, CHAIN_SHAPE), options);
  }

  /** GET /v1/external/chains/{blockchainId}/tokens: one page (Take 0..1000, Offset 0..100000). */
  async listTokens(blockchainId: string, page: { take?: number; offset?: number } = {}): Promise<TokenPage> {
    return this.get(PATHS.tokens(blockchainId), { Take: page.take, Offset: page.offset }, checkTokenPage);
  }

  /** GET /v1/external/bridges, sorted by volume. */
  listBridges(options: { includeDelisted?: boolean } = {}): Promise<Bridge[]> {
    return this.get(PATHS.bridges, { includeDelisted: options.includeDelisted ? true : undefined }, (body, request) =>
      checkObjects<Bridge>(body, 'bridges', request, BRIDGE_SHAPE),
    );
  }

  /** Closes the keep-alive connections. */
  close(): Promise<void> {
    return this.http.close();
  }
}

export function createClient(options: ClientOptions): SwapxClient {
  return new SwapxClient(options);
}
