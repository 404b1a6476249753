import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { DEMO_AUTH, NOW, swapsPath } from '../helpers/sandbox.js';

describe('sandbox server lifecycle', () => {
  it('keeps connections alive and closes them promptly on close()', async () => {
    const sandbox = await startSandbox({ port: 0, now: () => NOW });
    expect(sandbox.url).toBe(`http://127.0.0.1:${sandbox.port}`);
    const statuses: number[] = [];
    // Node's own client with a keep-alive agent: the socket stays open after the response.
    const { Agent } = await import('node:http');
    const agent = new Agent({ keepAlive: true });
    for (let i = 0; i < 2; i++) {
      await new Promise<void>((resolve, reject) => {
        request(`${sandbox.url}/v1/external/chains`, { agent, headers: { authorization: DEMO_AUTH } }, (res) => {
          expect(res.headers.connection).toBe('keep-alive');
          statuses.push(res.statusCode ?? 0);
          res.resume().on('end', resolve);
        })
          .on('error', reject)
          .end();
      });
    }
    expect(statuses).toEqual([200, 200]);
    const started = performance.now();
    await sandbox.close();
    // Waiting the idle connection out would take its 5 s keep-alive timeout: half of it is a bound no load reaches.
    expect(performance.now() - started).toBeLessThan(2500);
    await expect(fetch(`${sandbox.url}/v1/external/chains`)).rejects.toThrow();
    agent.destroy();
  });

  it('reports every request to onRequest and counts them', async () => {
    const seen: { method: string; url: string; status: number }[] = [];
    const sandbox = await startSandbox({ port: 0, now: () => NOW, onRequest: (info) => seen.push(info) });
    try {
      await (await fetch(`${sandbox.url}/v1/external/chains`, { headers: { authorization: DEMO_AUTH } })).text();
      await (await fetch(`${sandbox.url}${swapsPath('2026-11-01T00:00:00Z', '2026-11-01T00:00:01Z')}`)).text();
      await (await fetch(`${sandbox.url}/nowhere`, { method: 'POST' })).text();
      expect(seen).toEqual([
        { method: 'GET', url: '/v1/external/chains', status: 200 },
        { method: 'GET', url: expect.stringMatching(/^\/v1\/external\/swaps\?/), status: 403 },
        { method: 'POST', url: '/nowhere', status: 404 },
      ]);
      expect(sandbox.stats().requests).toBe(3);
    } finally {
      await sandbox.close();
    }
  });

  it('answers a cold 30-minute Updated window at 2,000 swaps/h, and the same again warm', async () => {
    const sandbox = await startSandbox({ port: 0, now: () => NOW, seed: 1234 });
    try {
      const get = async (from: string) => {
        const res = await fetch(`${sandbox.url}${swapsPath(from, new Date(Date.parse(from) + 1_800_000).toISOString(), 'Updated')}`, {
          headers: { authorization: DEMO_AUTH },
        });
        const swaps = (await res.json()) as unknown[];
        return { count: swaps.length };
      };
      await get('2026-11-03T00:00:00Z'); // JIT warm-up
      const cold = await get('2026-11-04T12:00:00Z');
      const warm = await get('2026-11-04T12:00:00Z');
      expect(cold.count).toBeGreaterThan(700);
      // How quickly is the bench's business (timings fail on a busy machine, not on a bug): here, that it answers.
      expect(warm.count).toBe(cold.count);
    } finally {
      await sandbox.close();
    }
  });
});
