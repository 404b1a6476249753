/**
 * A sync on a terminal shows how far it is, as `swaps` does: a backfill takes a while, and a silent one looks
 * hung. Nothing extra goes to a log (stderr not a terminal), nor with --summary-json or --quiet. Found trying it on
 * an 80-column terminal: the step line (about 150 characters) was broken mid-word by the terminal, and --follow
 * said "a step every 10.0s" for --interval 10s.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { useClockedSandbox } from '../helpers/clocked-sandbox.js';
import { Capture, runSwapx } from '../helpers/run.js';

// Latency: the spinner draws while the windows come in.
const api = useClockedSandbox({ latencyMs: 20, swapsPerHour: 200, clock: Date.parse('2026-11-02T00:00:00Z') });
const sync = (stderr: Capture, ...args: string[]) =>
  runSwapx(['sync', '--out', path.join(tempDir(), 'm'), '--since', '2026-11-01', '--until', '2026-11-01T06:00:00Z', '--concurrency', '1', ...args], {
    env: api.env(),
    stderr,
  });
const STEP =
  /^Synced [\d,]+ new, 0 late and 0 updated swaps into 1 partition; cursor 2026-11-01T06:00:00Z, updates from 2026-11-01T\S+; 12 windows, 13 requests, 0 retries, \S+\n$/;

describe('sync progress', () => {
  it('on a terminal: a spinner counts the windows and the swaps, then the step line on a cleared line', async () => {
    // Wide enough for the step line on one line.
    const stderr = new Capture({ isTTY: true, columns: 200 });
    const r = await sync(stderr);
    expect(r.code).toBe(0);
    const frames = [...stderr.text.matchAll(/windows (\d+)\/12 · ([\d,]+) swaps · [\d,]+\/s · retries 0 · ETA /g)].map((m) => Number(m[1]));
    expect(frames.length).toBeGreaterThan(0);
    expect(frames).toEqual([...frames].sort((a, b) => a - b));
    // The spinner is gone before the step line: it starts on a cleared line, and nothing is drawn after it.
    const last = stderr.text.lastIndexOf('Synced ');
    expect(stderr.text.slice(last - 10, last)).toMatch(/(?:\u001b\[2K|\u001b\[1G|\n)(?:\u001b\[\?25h)?$/);
    expect(stderr.text.slice(last)).toMatch(STEP);
  });
  it('to a log (not a terminal): the step line alone', async () => {
    const stderr = new Capture();
    const r = await sync(stderr);
    expect(r.code).toBe(0);
    expect(stderr.text).toMatch(STEP);
  });
  it.each([['--summary-json'], ['--quiet']])('on a terminal with %s: no spinner', async (flag) => {
    const stderr = new Capture({ isTTY: true, columns: 120 });
    const r = await sync(stderr, flag);
    expect(r.code).toBe(0);
    expect(stderr.text).not.toContain('\u001b[');
    expect(stderr.text).not.toContain(' · ');
  });
});

describe('sync on an 80-column terminal', () => {
  const plain = (text: string) => text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
  it('the step line is a clause a line, none wider than the terminal', async () => {
    const out = path.join(tempDir(), 'm');
    const args = ['sync', '--out', out, '--since', '2026-11-01', '--until', '2026-11-01T06:00:00Z', '--concurrency', '1'];
    const stderr = new Capture({ isTTY: true, columns: 80 });
    const r = await runSwapx(args, { env: api.env(), stderr });
    expect(r.code).toBe(0);
    const text = plain(stderr.text);
    const lines = text.slice(text.lastIndexOf('Synced ')).trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^Synced [\d,]+ new, 0 late and 0 updated swaps into 1 partition;$/);
    expect(lines[1]).toMatch(/^ {2}cursor 2026-11-01T06:00:00Z, updates from 2026-11-01T\S+Z;$/);
    expect(lines[2]).toMatch(/^ {2}12 windows, 13 requests, 0 retries, \S+$/);
    expect(lines.filter((line) => line.length > 80)).toEqual([]);
  });
  it('--follow says its interval as the user wrote it', async () => {
    const stop = new AbortController();
    const stderr = new Capture({ isTTY: true, columns: 80 });
    const running = runSwapx(['sync', '--out', path.join(tempDir(), 'm'), '--since', '2026-11-01T23:00:00Z', '--follow', '--interval', '10s'], {
      env: api.env(),
      stderr,
      signal: stop.signal,
    });
    while (!stderr.text.includes('Synced ')) await new Promise((resolve) => setTimeout(resolve, 10));
    stop.abort();
    expect((await running).code).toBe(0);
    expect(plain(stderr.text).split('\n')[0]).toMatch(/^Following \S+: a step every 10s; stop with Ctrl-C or SIGTERM$/);
  });
});
