/**
 * The typed client: one method per API operation, over the shared HTTP core.
 * This is what the package exports for library use.
 */
import { isUtf8 } from 'node:buffer';
import type { RequestInfo } from './errors.js';
import { HttpCore, type HttpCoreOptions, type Query } from './http.js';
import { keyCount, splitObjects, utf8Text } from './json-elements.js';
import { BRIDGE_SHAPE, CHAIN_SHAPE, checkObjects, checkSwap, checkSwaps, checkTokenPage } from './shape.js';
import { PATHS, type Bridge, type Chain, type DateRangeFilter, type Swap, type TokenPage } from './types.js';
import { freeNow } from '../util/free-now.js';
import { giveSlab, intoSlab } from '../util/slab-pool.js';
import { formatUtc } from '../util/time.js';

export type ClientOptions = HttpCoreOptions;

export interface SwapWindowQuery {
  from: Date | number | string;
  to: Date | number | string;
  /** server default: Withdrawn */
  filter?: DateRangeFilter;
}

function toTimeParam(value: Date | number | string): string {
  if (typeof value === 'string') return value;
  return formatUtc(typeof value === 'number' ? value : value.getTime());
}

function swapsQuery(query: SwapWindowQuery): Query {
  return { From: toTimeParam(query.from), To: toTimeParam(query.to), Filter: query.filter };
}

/**
 * Receives the swaps of a window one at a time, in the order sent. `raw` is the swap's bytes as the API sent
 * them when they are exactly what JSON.stringify(swap) writes (so they can be written as they are), else undefined.
 * The bytes belong to the response: keep a copy, or the part, only as long as needed.
 */
export type SwapVisitor = (swap: Swap, raw: Buffer | undefined) => void;

/** Response bodies forEachSwap read that are all of their memory, and so may be freed (freeResponseBytes). */
const freeable = new WeakSet<ArrayBufferLike>();

/**
 * Frees, at once, the response bodies that these raws (SwapVisitor's, among other items) are parts of, or gives
 * them back to the pool (util/slab-pool.ts), for a caller done with every raw of those responses: they all read as
 * empty, or as other bytes, afterwards. A window's body otherwise outlives its use by seconds (see util/free-now.ts).
 */
export function freeResponseBytes(items: Iterable<unknown>): void {
  let last: ArrayBufferLike | undefined;
  for (const item of items) {
    if (!Buffer.isBuffer(item) || item.buffer === last) continue;
    last = item.buffer;
    if (giveSlab(last)) continue;
    if (!freeable.delete(last)) continue;
    freeNow(Buffer.from(last));
  }
}

/** Per call: `signal` aborts this request and its retries. */
export interface CallOptions {
  signal?: AbortSignal;
}

export class SwapxClient {
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

  /**
   * listSwaps, one swap at a time: each is parsed and checked on its own, so a window's swaps never all live
   * as objects at once, and a swap sent in canonical JSON comes with its bytes. Same request, retries and errors
   * as listSwaps; resolves to the number of swaps visited. A wrong swap throws before the next is visited: the
   * swaps visited before it belong to a failed call and are to be dropped with it.
   */
  async forEachSwap(query: SwapWindowQuery, visit: SwapVisitor, options?: CallOptions): Promise<number> {
    const { relative, request } = this.encode(PATHS.swaps, swapsQuery(query));
    const body = await this.http.getJsonBytes(relative, options);
    // A dense window's body goes into pooled memory at once (one copy, ~0.2 ms for 1.5 MB): its own lives only
    // through the receive, and the pooled copy through the parse and the caller's use (freeResponseBytes gives it back).
    const bytes = intoSlab(body.bytes);
    // JSON between systems is UTF-8 (RFC 8259): other bytes would be read as U+FFFD and written so, silently.
    if (!isUtf8(bytes)) throw body.notJson();
    const elements = splitObjects(bytes);
    if (elements === undefined) {
      // Not a plain array of objects (or not JSON at all): read the ordinary way, for the ordinary errors.
      let parsed: unknown;
      try {
        parsed = JSON.parse(bytes.toString('utf8'));
      } catch {
        throw body.notJson();
      }
      const swaps = checkSwaps(parsed, request);
      for (const swap of swaps) visit(swap, undefined);
      return swaps.length;
    }
    const { spans, canonical, keys, count } = elements;
    if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) freeable.add(bytes.buffer);
    for (let i = 0; i < count; i++) {
      const start = spans[i * 2]!;
      const end = spans[i * 2 + 1]!;
      let value: unknown;
      try {
        value = JSON.parse(utf8Text(bytes, start, end));
      } catch {
        // An element that is not JSON makes the whole body not JSON.
        throw body.notJson();
      }
      const swap = checkSwap(value, i, request);
      // A key sent twice is read once (the last): such bytes are not what JSON.stringify writes.
      const raw = canonical[i] === 1 && keyCount(swap) === keys[i] ? bytes.subarray(start, end) : undefined;
      visit(swap, raw);
    }
    return count;
  }

  /** GET /v1/external/swaps/{identifier}: by tx hash (either side) or swap id; [] when nothing matches. */
  async getSwaps(identifier: string, options?: CallOptions): Promise<Swap[]> {
    return this.get(PATHS.swap(identifier), undefined, checkSwaps, options);
  }

  /** GET /v1/external/chains */
  listChains(): Promise<Chain[]> {
    return this.get(PATHS.chains, undefined, (body, request) => checkObjects<Chain>(body, 'chains', request, CHAIN_SHAPE));
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
