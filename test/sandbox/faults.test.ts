import { describe, expect, it } from 'vitest';
import { DEFAULT_FAULT_KINDS, checkFaultKinds, pickFault } from '../../src/sandbox/faults.js';
import { FAULT_KINDS, startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { runSwapx } from '../helpers/run.js';
import { until } from '../helpers/wait.js';
import { DAY, DEMO_AUTH, NOW, swapsPath } from '../helpers/sandbox.js';

type Outcome =
  | { kind: 'ok'; status: number; text: string }
  | { kind: 'status'; status: number; headers: Headers; json: unknown }
  | { kind: 'error'; stage: 'fetch' | 'body' };

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

const PATHS = [swapsPath(`${DAY}T01:00:00Z`, `${DAY}T01:10:00Z`), '/v1/external/chains', '/v1/external/chains/ethereum/tokens?Take=50', '/v1/external/bridges'];

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

  it('draws only the kinds listed in faultKinds, at the same requests as the default kinds', () => {
    const defaults = Array.from({ length: 400 }, (_, n) => pickFault(5, n, 0.3));
    expect(new Set(defaults.filter(Boolean))).toEqual(new Set(DEFAULT_FAULT_KINDS));
    expect(DEFAULT_FAULT_KINDS).not.toContain('slow');
    const chosen = Array.from({ length: 400 }, (_, n) => pickFault(5, n, 0.3, ['slow', '429']));
    expect(new Set(chosen.filter(Boolean))).toEqual(new Set(['slow', '429']));
    // Which requests fault depends on (seed, n, rate) only.
    expect(chosen.map((k) => k !== undefined)).toEqual(defaults.map((k) => k !== undefined));
    expect(checkFaultKinds(['slow', 'reset', 'slow'])).toEqual(['slow', 'reset']);
    expect(() => checkFaultKinds(['slow', 'timeout'])).toThrow("unknown fault kind 'timeout'");
    expect(() => checkFaultKinds([])).toThrow('no fault kind given');
  });

  it("a 'slow' fault answers normally, but only after slowMs", async () => {
    const info: { status: number; fault?: string }[] = [];
    await withSandbox({ faultRate: 1, faultKinds: ['slow'], slowMs: 300, onRequest: (i) => info.push(i) }, async (sandbox) => {
      const clean = await withSandbox({}, (plain) => attempt(plain, PATHS[0]!));
      const started = performance.now();
      const outcome = await attempt(sandbox, PATHS[0]!);
      expect(performance.now() - started).toBeGreaterThanOrEqual(280);
      expect(outcome).toEqual(clean);
      // A client that gives up first (once the sandbox holds its request: not on a timer, which a loaded machine can
      // outrun) sees its abort; the sandbox later finds the socket gone.
      const giveUp = new AbortController();
      const aborted = fetch(`${sandbox.url}${PATHS[1]!}`, { headers: { authorization: DEMO_AUTH }, signal: giveUp.signal }).then(
        () => 'answered',
        (error: Error) => error.name,
      );
      await until(() => sandbox.stats().faults.slow === 2);
      giveUp.abort();
      expect(await aborted).toBe('AbortError');
      await until(() => info.length === 2);
      expect(sandbox.stats().faults).toMatchObject({ slow: 2, '429': 0, reset: 0 });
      expect(info).toEqual([
        { method: 'GET', url: PATHS[0], status: 200, fault: 'slow' },
        { method: 'GET', url: PATHS[1], status: 0, fault: 'slow' },
      ]);
    });
  });

  it('close() does not wait for a slow answer still pending', async () => {
    const sandbox = await startSandbox({ port: 0, now: () => NOW, faultRate: 1, faultKinds: ['slow'], slowMs: 60_000 });
    const pending = attempt(sandbox, PATHS[1]!);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    await sandbox.close();
    // Waiting would take the whole minute: a quarter of it is a bound no load reaches.
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(await pending).toEqual({ kind: 'error', stage: 'fetch' });
  });

  it('swapx sandbox --fault-kinds and --slow-ms are checked before the sandbox starts', async () => {
    // In process: a refusal returns before any server listens (a wrong acceptance would hang the test).
    const bad = await runSwapx(['sandbox', '--port', '0', '--fault-kinds', '429,timeout']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("swapx: error: --fault-kinds: unknown fault kind 'timeout' (known: 429, 500, 503, reset, truncated, slow)\n");
    const empty = await runSwapx(['sandbox', '--port', '0', '--fault-kinds', ' , ']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--fault-kinds: no fault kind given');
    const slow = await runSwapx(['sandbox', '--port', '0', '--slow-ms', '-1']);
    expect(slow.code).toBe(2);
    expect(slow.stderr).toBe('swapx: error: --slow-ms must be from 0 to 600000, not -1\n');
  });
});
