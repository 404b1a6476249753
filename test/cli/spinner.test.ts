/**
 * Issue 22.9: the spinner never sits in front of data lines. Data on a terminal: ora clears the spinner line
 * before each write to the streams it hooks (its own, stdout, stderr) and draws it again below. Data on a stdout
 * that is not a terminal (| jq, | head, which may print to this same terminal, or > file): no spinner and no
 * progress lines on the terminal, only the summary at the end; data to -o FILE leaves the terminal to the spinner.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { useClockedSandbox } from '../helpers/clocked-sandbox.js';
import { Capture, runSwapx } from '../helpers/run.js';

// Latency: the spinner draws while the windows come in.
const api = useClockedSandbox({ latencyMs: 40, swapsPerHour: 200, clock: Date.parse('2026-11-08T00:00:00Z') });
const EXPORT = ['swaps', '--from', '2026-11-01T00:00:00Z', '--to', '2026-11-01T03:00:00Z', '--concurrency', '1', '--window', '10m'];
const CLEARED = /(?:\u001b\[2K|\u001b\[1G|\n)$/;

describe('the spinner and the data', () => {
  it('data on the same terminal: every data line starts on a cleared line, none after a spinner frame', async () => {
    // One terminal: stdout and stderr are the same screen.
    const screen = new Capture({ isTTY: true, columns: 120 });
    const r = await runSwapx([...EXPORT, '--fields', 'id,withdrawnAt'], { env: api.env(), stdout: screen, stderr: screen });
    expect(r.code).toBe(0);
    expect(screen.text).toContain('windows ');
    const starts = [...screen.text.matchAll(/[0-9a-f]{24} {2}2026-11-01T/g)].map((m) => m.index);
    expect(starts.length).toBeGreaterThan(100);
    for (const at of starts) expect(screen.text.slice(Math.max(0, at - 8), at)).toMatch(CLEARED);
  });
  // Issue "the people, round two", 5: gh's rule. A stdout redirected to a file is not a terminal, and swapx cannot
  // tell it from a pipe into a program that prints on this terminal: nothing is drawn; -o FILE is told, and draws.
  it('data redirected to a file (> week.jsonl): nothing drawn while it runs, as for a pipe; the summary at the end', async () => {
    const file = path.join(tempDir(), 'out.jsonl');
    const fd = fs.openSync(file, 'w');
    const stdout = Object.assign(new Capture(), { fd });
    const stderr = new Capture({ isTTY: true, columns: 120 });
    try {
      const r = await runSwapx(EXPORT, { env: api.env(), stdout, stderr });
      expect(r.code).toBe(0);
    } finally {
      fs.closeSync(fd);
    }
    expect(stderr.text).not.toContain('\u001b[');
    expect(stderr.text).toMatch(/^Exported [\d,]+ swaps to stdout\n/);
  });
  it('data to -o FILE, stdout piped: the spinner shows on the terminal, since no data does', async () => {
    const file = path.join(tempDir(), 'out.jsonl');
    const stderr = new Capture({ isTTY: true, columns: 120 });
    const r = await runSwapx([...EXPORT, '-o', file], { env: api.env(), stdout: new Capture(), stderr });
    expect(r.code).toBe(0);
    expect(stderr.text).toMatch(/windows \d+\/18 · /);
    expect(stderr.text).toContain(`Exported`);
  });
  it('stdout and stderr two terminals: the spinner shows', async () => {
    const stderr = new Capture({ isTTY: true, columns: 120 });
    const r = await runSwapx([...EXPORT, '--fields', 'id'], { env: api.env(), stdout: new Capture({ isTTY: true, columns: 120 }), stderr });
    expect(r.code).toBe(0);
    expect(stderr.text).toMatch(/windows \d+\/18 · /);
  });
  it('data piped: nothing drawn on the terminal while it runs, the summary at the end', async () => {
    const stderr = new Capture({ isTTY: true, columns: 120 });
    const stdout = new Capture();
    const r = await runSwapx(EXPORT, { env: api.env(), stdout, stderr });
    expect(r.code).toBe(0);
    expect(stdout.text).toMatch(/^\{"id":/);
    expect(stderr.text).not.toContain('\u001b[');
    expect(stderr.text).not.toContain(' · ');
    expect(stderr.text).toMatch(/^Exported [\d,]+ swaps to stdout\n/);
  });
});
