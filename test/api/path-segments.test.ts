/** Library callers (the package exports the client) pass identifiers as they get them: each names one resource. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from '../../src/api/client.js';

const seen: string[] = [];
let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end(req.url?.includes('/tokens') ? '{"items":[],"totalCount":0}' : '[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('dot segments in an identifier', () => {
  it.each([
    ['getSwaps', '.', (c: ReturnType<typeof createClient>, id: string) => c.getSwaps(id)],
    ['getSwaps', '..', (c: ReturnType<typeof createClient>, id: string) => c.getSwaps(id)],
    ['getSwaps', '', (c: ReturnType<typeof createClient>, id: string) => c.getSwaps(id)],
    ['listTokens', '..', (c: ReturnType<typeof createClient>, id: string) => c.listTokens(id)],
  ])("%s('%s') is refused before sending: URLs drop dot segments, so it would name another endpoint", async (_name, id, call) => {
    const client = createClient({ baseUrl: base, credentials: { kind: 'basic', clientId: 'a', apiKey: 'b' }, retries: 0 });
    seen.length = 0;
    try {
      await expect(call(client, id)).rejects.toThrow(`'${id}' cannot name a resource in a URL path`);
    } finally {
      await client.close();
    }
    expect(seen).toEqual([]);
  });
});
