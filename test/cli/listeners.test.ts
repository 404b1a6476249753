/** Issue 11.6: no MaxListenersExceededWarning at high --concurrency, for swaps and sync. */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { linkAbort } from '../../src/api/abort.js';
import { tempDir } from '../helpers/cli.js';
import { useClockedSandbox } from '../helpers/clocked-sandbox.js';
import { runSwapx } from '../helpers/run.js';

let warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
beforeEach(() => {
  warnings = [];
  process.on('warning', onWarning);
});
afterEach(() => {
  process.off('warning', onWarning);
});

/** Warnings are emitted on the next tick: let them arrive before looking. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('linkAbort', () => {
  it('follows one signal from 100 links with one listener, and stops following on dispose', async () => {
    const parent = new AbortController();
    const links = Array.from({ length: 100 }, () => linkAbort([parent.signal]));
    links[0]!.dispose();
    parent.abort();
    await settle();
    expect(links.slice(1).every((l) => l.controller.signal.aborted)).toBe(true);
    expect(links[0]!.controller.signal.aborted).toBe(false);
    expect(warnings).toEqual([]);
  });
  it('is aborted at once when a followed signal already is', () => {
    const parent = new AbortController();
    parent.abort();
    expect(linkAbort([undefined, parent.signal]).controller.signal.aborted).toBe(true);
  });
});

describe('--concurrency 32', () => {
  // Latency keeps many requests in flight at once, as on a real network.
  const api = useClockedSandbox({ latencyMs: 20, swapsPerHour: 20, clock: Date.parse('2026-11-08T00:00:00Z') });
  const dir = tempDir();

  it('swaps prints no MaxListenersExceededWarning', async () => {
    const env = api.env();
    const r = await runSwapx(['swaps', '--from', '2026-11-01', '--to', '2026-11-02', '--concurrency', '32', '-o', path.join(dir, 'day.jsonl')], { env });
    await settle();
    expect(r.code).toBe(0);
    expect(warnings).toEqual([]);
  });
  it('sync prints no MaxListenersExceededWarning', async () => {
    const env = api.env();
    const r = await runSwapx(['sync', '--out', path.join(dir, 'mirror'), '--since', '2026-11-01', '--until', '2026-11-02', '--concurrency', '32', '-q'], {
      env,
    });
    await settle();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(warnings).toEqual([]);
  });
});
