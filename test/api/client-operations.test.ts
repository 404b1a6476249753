/** The typed client's operations: the path and query each sends, and the check each applies to the answer. */
import { describe, expect, it } from 'vitest';
import { MOCK_BASE, useMockAgent } from '../helpers/mock-agent.js';
import { useRouteServer } from '../helpers/route-server.js';
import { ONE_SWAP } from '../helpers/one-swap.js';
import { SwapxClient, createClient, swapsQuery, type ClientOptions } from '../../src/api/client.js';
import { ResponseFormatError } from '../../src/api/errors.js';

const mock = useMockAgent();
const server = useRouteServer({
  '/ok': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  },
});
const json = { headers: { 'content-type': 'application/json' } };

function client(extra: Partial<ClientOptions> = {}) {
  return createClient({ baseUrl: `${MOCK_BASE}/api`, dispatcher: mock.agent, retries: 0, ...extra });
}

/** Answers `path` (under /api) once with `body`. */
function answer(path: string, body: unknown, headers: Record<string, string> = {}) {
  mock.agent
    .get(MOCK_BASE)
    .intercept({ path: `/api${path}`, method: 'GET' })
    .reply(200, JSON.stringify(body), { headers: { ...json.headers, ...headers } });
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(ResponseFormatError);
      return (error as Error).message;
    },
  );
}

describe('swapsQuery', () => {
  it('sends times as the API writes them: text as given, numbers and dates in UTC', () => {
    expect(swapsQuery({ from: '2026-01-01T00:00:00+02:00', to: Date.parse('2026-01-01T00:30:00Z'), filter: 'Completed' })).toEqual({
      From: '2026-01-01T00:00:00+02:00',
      To: '2026-01-01T00:30:00Z',
      Filter: 'Completed',
    });
    expect(swapsQuery({ from: new Date('2026-01-01T00:00:00.250Z'), to: new Date(0) })).toEqual({
      From: '2026-01-01T00:00:00.250Z',
      To: '1970-01-01T00:00:00Z',
      Filter: undefined,
    });
  });
});

describe('SwapxClient', () => {
  it('createClient makes a client over the HTTP core', () => {
    const made = client();
    expect(made).toBeInstanceOf(SwapxClient);
    expect(made.http.baseUrl.href).toBe(`${MOCK_BASE}/api`);
  });

  it('listSwaps asks for a window and checks the swaps', async () => {
    answer('/v1/external/swaps?From=2026-01-01T00%3A00%3A00Z&To=2026-01-01T00%3A30%3A00Z&Filter=Withdrawn', [ONE_SWAP]);
    await expect(client().listSwaps({ from: '2026-01-01T00:00:00Z', to: '2026-01-01T00:30:00Z', filter: 'Withdrawn' })).resolves.toEqual([ONE_SWAP]);
    answer('/v1/external/swaps?From=a&To=b', [{ ...ONE_SWAP, completedAt: 'soon' }]);
    expect(await refusal(client().listSwaps({ from: 'a', to: 'b' }))).toBe(
      'the API sent data of the wrong shape: swap 0 completedAt is a string, expected an ISO 8601 date-time string (GET /api/v1/external/swaps?From=a&To=b)',
    );
  });

  it('getSwaps asks for one identifier, escaped', async () => {
    answer('/v1/external/swaps/0x%2Fab', [ONE_SWAP]);
    await expect(client().getSwaps('0x/ab')).resolves.toEqual([ONE_SWAP]);
    answer('/v1/external/swaps/x', {});
    expect(await refusal(client().getSwaps('x'))).toBe(
      'the API sent data of the wrong shape: expected an array of swaps, got an object (GET /api/v1/external/swaps/x)',
    );
  });

  it('serverTime reads the Date header of an empty completed window at the time given', async () => {
    const at = Date.parse('2026-03-01T12:00:00Z');
    const made = client();
    made.http.serverDate = 1;
    answer('/v1/external/swaps?From=2026-03-01T12%3A00%3A00Z&To=2026-03-01T12%3A00%3A00Z&Filter=Completed', [], { date: 'Sun, 01 Mar 2026 12:00:05 GMT' });
    await expect(made.serverTime(at)).resolves.toBe(Date.parse('2026-03-01T12:00:05Z'));
    answer('/v1/external/swaps?From=2026-03-01T12%3A00%3A00Z&To=2026-03-01T12%3A00%3A00Z&Filter=Completed', []);
    await expect(made.serverTime(at)).resolves.toBeUndefined();
  });

  it('listChains checks chains', async () => {
    answer('/v1/external/chains', [{ blockchainId: 'ethereum', name: 'Ethereum', explorerUrl: null }]);
    await expect(client().listChains()).resolves.toEqual([{ blockchainId: 'ethereum', name: 'Ethereum', explorerUrl: null }]);
    answer('/v1/external/chains', [{ name: 1 }]);
    expect(await refusal(client().listChains())).toBe(
      'the API sent data of the wrong shape: chains 0 name is a number, expected a string or null (GET /api/v1/external/chains)',
    );
  });

  it('listTokens asks for one page of a chain’s tokens', async () => {
    answer('/v1/external/chains/eth%20x/tokens?Take=10&Offset=0', { totalCount: 1, items: [{ symbol: 'A' }] });
    await expect(client().listTokens('eth x', { take: 10, offset: 0 })).resolves.toEqual({ totalCount: 1, items: [{ symbol: 'A' }] });
    answer('/v1/external/chains/eth/tokens', { totalCount: 'x', items: [] });
    expect(await refusal(client().listTokens('eth'))).toBe(
      'the API sent data of the wrong shape: totalCount is a string, expected an integer (GET /api/v1/external/chains/eth/tokens)',
    );
  });

  it('listBridges asks for delisted ones only when told, and checks bridges', async () => {
    const bridge = { key: 'b', allTimeSwapsVolume: 1, status: 'Active', delisted: false };
    answer('/v1/external/bridges?includeDelisted=true', [bridge]);
    await expect(client().listBridges({ includeDelisted: true })).resolves.toEqual([bridge]);
    answer('/v1/external/bridges', [bridge]);
    await expect(client().listBridges({ includeDelisted: false })).resolves.toEqual([bridge]);
    answer('/v1/external/bridges', [{ ...bridge, delisted: 'no' }]);
    expect(await refusal(client().listBridges())).toBe(
      'the API sent data of the wrong shape: bridges 0 delisted is a string, expected true or false (GET /api/v1/external/bridges)',
    );
  });

  it('a call’s signal stops it', async () => {
    await expect(client().getSwaps('x', { signal: AbortSignal.abort() })).rejects.toThrow('interrupted');
    await expect(client().listSwaps({ from: 'a', to: 'b' }, { signal: AbortSignal.abort() })).rejects.toThrow('interrupted');
    await expect(client().serverTime(0, { signal: AbortSignal.abort() })).rejects.toThrow('interrupted');
  });

  it('close leaves a dispatcher it was given open', async () => {
    await client().close();
    answer('/v1/external/chains', []);
    await expect(client().listChains()).resolves.toEqual([]);
  });

  it('close closes connections of its own', async () => {
    const own = createClient({ baseUrl: `${server.base}/ok`, retries: 0 });
    await expect(own.listChains()).resolves.toEqual([]);
    await own.close();
    await expect(own.listChains()).rejects.toThrow(/^connection to 127\.0\.0\.1:\d+ failed: /);
  });
});
