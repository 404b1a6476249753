/**
 * The typed client: one method per API operation, over the shared HTTP core.
 * This is what the package exports for library use.
 */
import { HttpCore, type HttpCoreOptions } from './http.js';
import { ResponseFormatError } from './errors.js';
import { PATHS, type Bridge, type Chain, type DateRangeFilter, type Swap, type TokenPage } from './types.js';
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

function expectArray<T>(value: unknown, what: string, path: string): T[] {
  if (!Array.isArray(value)) {
    throw new ResponseFormatError(`the API answered ${what} with JSON that is not an array`, 200, {}, undefined, { method: 'GET', path });
  }
  return value as T[];
}

export class SwapxClient {
  readonly http: HttpCore;

  constructor(options: ClientOptions) {
    this.http = new HttpCore(options);
  }

  /** GET /v1/external/swaps: swaps in a window of at most 30 minutes, both ends inclusive. */
  async listSwaps(query: SwapWindowQuery): Promise<Swap[]> {
    const params = { From: toTimeParam(query.from), To: toTimeParam(query.to), Filter: query.filter };
    const body = await this.http.getJson<unknown>(PATHS.swaps, params);
    return expectArray<Swap>(body, 'the swaps list', HttpCore.pathWithQuery(PATHS.swaps, params));
  }

  /** GET /v1/external/swaps/{identifier}: by tx hash (either side) or swap id; [] when nothing matches. */
  async getSwaps(identifier: string): Promise<Swap[]> {
    const path = PATHS.swap(identifier);
    return expectArray<Swap>(await this.http.getJson<unknown>(path), 'the swap lookup', path);
  }

  /** GET /v1/external/chains */
  async listChains(): Promise<Chain[]> {
    return expectArray<Chain>(await this.http.getJson<unknown>(PATHS.chains), 'the chains list', PATHS.chains);
  }

  /** GET /v1/external/chains/{blockchainId}/tokens: one page (Take 0..1000, Offset 0..100000). */
  async listTokens(blockchainId: string, page: { take?: number; offset?: number } = {}): Promise<TokenPage> {
    const path = PATHS.tokens(blockchainId);
    const body = await this.http.getJson<unknown>(path, { Take: page.take, Offset: page.offset });
    if (!body || typeof body !== 'object' || Array.isArray(body) || typeof (body as TokenPage).totalCount !== 'number') {
      throw new ResponseFormatError('the API answered the tokens list with JSON that is not a token page', 200, {}, undefined, { method: 'GET', path });
    }
    return body as TokenPage;
  }

  /** GET /v1/external/bridges, sorted by volume. */
  async listBridges(options: { includeDelisted?: boolean } = {}): Promise<Bridge[]> {
    const query = { includeDelisted: options.includeDelisted ? true : undefined };
    return expectArray<Bridge>(await this.http.getJson<unknown>(PATHS.bridges, query), 'the bridges list', PATHS.bridges);
  }

  /** Closes the keep-alive connections. */
  close(): Promise<void> {
    return this.http.close();
  }
}

export function createClient(options: ClientOptions): SwapxClient {
  return new SwapxClient(options);
}
