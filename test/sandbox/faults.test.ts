import { describe, expect, it } from 'vitest';
import { FAULT_KINDS, startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { DAY, DEMO_AUTH, NOW, swapsPath } from './helpers.js';

type Outcome = { kind: 'ok'; status: number; text: string } | { kind: 'status'; status: number; headers: Headers; json: unknown } | { kind: 'error'; stage: 'fetch' | 'body' };

async function attempt(sandbox: RunningSandbox, path: string, authorization: string | null = DEMO_AUTH): Promise<Outcome> {
  let res: Response;
  try {
    res = await fetch(`${sandbox.url}${path}`, { headers: authorization ? { authorization } : {} });
  } catch {
    return { kind: 'error', stage: 'fetch' };
  }
  let text: string;
  try {
    text = await res.text();
  } catch {
    return { kind: 'error', stage: 'body' };
  }
  if (res.status === 429 || res.status >= 500) return { kind: 'status', status: res.status, headers: res.headers, json: JSON.parse(text) };
  return { kind: 'ok', status: res.status, text };
}

async function withSandbox<T>(options: SandboxOptions, body: (s: RunningSandbox) => Promise<T>): Promise<T> {
  const sandbox = await startSandbox({ port: 0, now: () => NOW, retryAfterSeconds: 2, ...options });
  try {
    return await body(sandbox);
  } finally {
    await sandbox.close();
  }
}

const PATHS = [
  swapsPath(`${DAY}T01:00:00Z`, `${DAY}T01:10:00Z`),
  '/v1/external/chains',
  '/v1/external/chains/ethereum/tokens?Take=50',
  '/v1/external/bridges',
];

describe('sandbox fault injection', () => {
  it('at faultRate 1 produces every fault kind, with the documented shapes, and counts them', async () => {
    const seen = new Set<string>();
    const info: { status: number; fault?: string }[] = [];
    await withSandbox({ faultRate: 1, seed: 3, onRequest: (i) => info.push(i) }, async (sandbox) => {
      for (let i = 0; i < 40; i++) {
        const outcome = await attempt(sandbox, PATHS[i % PATHS.length]!);
        expect(outcome.kind).not.toBe('ok');
        if (outcome.kind === 'error') seen.add(outcome.stage === 'fetch' ? 'reset' : 'truncated');
        if (outcome.kind !== 'status') continue;
        seen.add(String(outcome.status));
        if (outcome.status === 429) {
          expect(outcome.headers.get('retry-after')).toBe('2');
          expect(outcome.json).toMatchObject({ status: 429, title: 'Too Many Requests' });
        } else {
          expect(outcome.json).toStrictEqual({
            type: expect.stringMatching(/^https:\/\/tools\.ietf\.org\/html\/rfc9110#section-15\.6\.\d$/),
            title: 'An unexpected error occurred.',
            status: outcome.status,
            detail: expect.any(String),
            instance: expect.stringMatching(/^\/v1\/external\//),
            timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/),
            traceId: expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/),
          });
        }
      }
      const stats = sandbox.stats();
      expect(stats.requests).toBe(40);
      expect(Object.keys(stats.faults).sort()).toEqual([...FAULT_KINDS].sort());
      expect(Object.values(stats.faults).reduce((a, b) => a + b, 0)).toBe(40);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(info.filter((i) => i.fault).length).toBe(40);
    });
    expect([...seen].sort()).toEqual(['429', '500', '503', 'reset', 'truncated']);
  });

  it('never faults 400 or 403 answers', async () => {
    await withSandbox({ faultRate: 1 }, async (sandbox) => {
      for (let i = 0; i < 10; i++) {
        expect(await attempt(sandbox, '/v1/external/chains', null)).toMatchObject({ kind: 'ok', status: 403 });
        expect(await attempt(sandbox, '/v1/external/swaps')).toMatchObject({ kind: 'ok', status: 400 });
      }
      expect(Object.values(sandbox.stats().faults).every((n) => n === 0)).toBe(true);
    });
  });

  it('serves the same data at faultRate 0.3 as at 0, and repeats the same fault sequence', async () => {
    const run = (faultRate: number) =>
      withSandbox({ faultRate, seed: 8 }, async (sandbox) => {
        const outcomes: Outcome[] = [];
        for (let i = 0; i < 24; i++) outcomes.push(await attempt(sandbox, PATHS[i % PATHS.length]!));
        return outcomes;
      });
    const clean = await run(0);
    const faulty = await run(0.3);
    const again = await run(0.3);
    expect(clean.every((o) => o.kind === 'ok' && o.status === 200)).toBe(true);
    const okCount = faulty.filter((o) => o.kind === 'ok').length;
    expect(okCount).toBeGreaterThan(8);
    expect(okCount).toBeLessThan(24);
    faulty.forEach((o, i) => {
      if (o.kind === 'ok') expect(o).toEqual(clean[i]);
    });
    expect(again.map((o) => o.kind + ('status' in o ? o.status : ''))).toEqual(faulty.map((o) => o.kind + ('status' in o ? o.status : '')));
  });

  it('adds latency around the mean', async () => {
    await withSandbox({ latencyMs: 40 }, async (sandbox) => {
      const started = performance.now();
      const outcome = await attempt(sandbox, '/v1/external/chains');
      expect(outcome.kind).toBe('ok');
      expect(performance.now() - started).toBeGreaterThanOrEqual(30);
    });
  });
});
