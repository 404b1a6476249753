import { describe, expect, it } from 'vitest';
import { MOCK_BASE, useMockAgent } from '../helpers/mock-agent.js';
import { createClient } from '../../src/api/client.js';
import { AbortedError, ResponseFormatError } from '../../src/api/errors.js';
import type { Swap } from '../../src/api/types.js';
import { windowReader } from '../../src/windows/read-window.js';

const BASE = MOCK_BASE;
const WINDOW = { from: '2026-11-01T00:00:00Z', to: '2026-11-01T00:30:00Z' };
const mock = useMockAgent();

function swap(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const at = '2026-11-01T00:10:00Z';
  return { id, depositedAt: at, withdrawnAt: at, detectedAt: at, completedAt: at, updatedAt: at, depositAmount: 1.5, usdMismatchStatus: 'None', ...extra };
}

/** Serves `body` for every swaps request, `times` times. */
function serve(body: string, times = 2) {
  mock.agent
    .get(BASE)
    .intercept({ path: (path) => path.startsWith('/v1/external/swaps?'), method: 'GET' })
    .reply(200, body, { headers: { 'content-type': 'application/json' } })
    .times(times);
  return createClient({ baseUrl: BASE, credentials: { kind: 'basic', clientId: 'a', apiKey: 'b' }, dispatcher: mock.agent, retries: 0 });
}

async function visit(body: string) {
  const client = serve(body);
  const seen: { swap: Swap; raw: string | undefined }[] = [];
  const { count, body: read } = await windowReader(client)(WINDOW, (s, raw) => void seen.push({ swap: s, raw: raw?.toString('utf8') }));
  // The body handed back is the one the raws are parts of.
  expect(read.toString('utf8')).toBe(body);
  return { client, seen, count };
}

describe('the window reader', () => {
  it('visits what listSwaps returns, in order, with the bytes of each swap sent canonically', async () => {
    const canonical = JSON.stringify(swap('a'));
    const spaced = JSON.stringify(swap('b'), null, 2);
    const escaped = JSON.stringify(swap('c', { bridge: 'Hop "v2"' }));
    const { client, seen, count } = await visit(`[${canonical},\n${spaced}, ${escaped}]`);
    expect(count).toBe(3);
    expect(seen.map((s) => s.swap)).toEqual(await client.listSwaps(WINDOW));
    expect(seen.map((s) => s.raw)).toEqual([canonical, undefined, undefined]);
  });

  it('hands no bytes of a swap sent with a key twice: JSON.parse keeps the last, so they are not what it read', async () => {
    const twice = JSON.stringify(swap('a')).replace('{', '{"id":"first",');
    const { seen } = await visit(`[${twice}]`);
    expect(seen).toEqual([{ swap: expect.objectContaining({ id: 'a' }), raw: undefined }]);
  });

  it('refuses a body that is not UTF-8, as a body that is not JSON', async () => {
    // JSON but for one byte in a string, which decoding would turn into U+FFFD: a swap that reads well, and is not what was sent.
    const [before, after] = `[${JSON.stringify(swap('a', { bridge: 'X|Y' }))}]`.split('|');
    const body = Buffer.concat([Buffer.from(before!), Buffer.from([0xff]), Buffer.from(after!)]);
    mock.agent
      .get(BASE)
      .intercept({ path: (path) => path.startsWith('/v1/external/swaps?'), method: 'GET' })
      .reply(200, body, { headers: { 'content-type': 'application/json' } });
    const client = createClient({ baseUrl: BASE, credentials: { kind: 'basic', clientId: 'a', apiKey: 'b' }, dispatcher: mock.agent, retries: 0 });
    const seen: Swap[] = [];
    const error = await windowReader(client)(WINDOW, (s) => void seen.push(s)).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect((error as Error).message).toBe(
      'the API answered HTTP 200 with a body that is not JSON (content type application/json, GET /v1/external/swaps?From=2026-11-01T00%3A00%3A00Z&To=2026-11-01T00%3A30%3A00Z)',
    );
    expect(seen).toEqual([]);
  });

  it('stops at once when its signal is aborted', async () => {
    const client = serve('[]', 1);
    const error = await windowReader(client)(WINDOW, () => undefined, AbortSignal.abort()).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(AbortedError);
  });

  it('reads a body that is not a plain array of objects the ordinary way', async () => {
    const { seen, count } = await visit('[]');
    expect([seen, count]).toEqual([[], 0]);
  });

  // The swaps before a wrong one are visited: the caller drops the whole window when the call fails.
  it.each([
    ['a broken element', `[${JSON.stringify(swap('a'))},{"id":}]`, 1],
    ['an unclosed array', `[${JSON.stringify(swap('a'))}`, 0],
    ['an object', '{"items":[]}', 0],
    ['a swap that is null', '[null]', 0],
    ['a mistyped amount', `[${JSON.stringify(swap('a'))},${JSON.stringify(swap('b')).replace('1.5', '"1.5"')}]`, 1],
    ['a swap without its time', `[${JSON.stringify(swap('a')).replace('"completedAt"', '"completed"')}]`, 0],
  ])('fails on %s with the error listSwaps gives', async (_, body, visited) => {
    const client = serve(body);
    const expected = await client.listSwaps(WINDOW).catch((error: unknown) => error as Error);
    expect(expected).toBeInstanceOf(Error);
    const seen: Swap[] = [];
    const error = await windowReader(client)(WINDOW, (s) => void seen.push(s)).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(expected.constructor as typeof Error);
    expect(error?.message).toBe((expected as Error).message);
    expect(seen).toHaveLength(visited);
  });
});
