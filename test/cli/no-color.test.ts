/** Issue 11.8: NO_COLOR and --no-color turn off every colour on both streams, the spinner's included. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { useClockedSandbox } from '../helpers/clocked-sandbox.js';
import { Capture, runSwapx } from '../helpers/run.js';

/** SGR sequences (colours, bold, dim); cursor moves and line clears are not colour. */
const COLOUR = /\u001b\[[0-9;]*m/;

// Latency: the spinner draws while the windows come in.
const api = useClockedSandbox({ latencyMs: 30, swapsPerHour: 50, clock: Date.parse('2026-11-08T00:00:00Z') });
const dir = tempDir();

async function onTerminal(argv: string[], extraEnv: Record<string, string>) {
  const env = api.env();
  delete env.NO_COLOR;
  Object.assign(env, extraEnv);
  const stdout = new Capture({ isTTY: true, columns: 100 });
  const stderr = new Capture({ isTTY: true, columns: 100 });
  const code = (await runSwapx(argv, { env, stdout, stderr })).code;
  return { code, stdout: stdout.text, stderr: stderr.text };
}

const EXPORT = ['swaps', '--from', '2026-11-01T00:00:00Z', '--to', '2026-11-01T03:00:00Z', '--concurrency', '1', '--force'];

describe('colour', () => {
  it('is on by default on a terminal (so the checks below can fail)', async () => {
    // (ora colours its frame with the process's own chalk, which is off under vitest: the spinner's check
    // below holds because swapx passes it color: false.)
    expect((await onTerminal(['tokens', 'nowhere'], {})).stderr).toMatch(COLOUR);
    expect((await onTerminal(['bridges'], {})).stdout).toMatch(COLOUR);
  });
  it.each([
    ['NO_COLOR=1', [], { NO_COLOR: '1' }],
    ['--no-color', ['--no-color'], {}],
    // Issue 22.9: as chalk and supports-color read them.
    ['FORCE_COLOR=0', [], { FORCE_COLOR: '0' }],
    ['TERM=dumb', [], { TERM: 'dumb' }],
  ])('%s: no colour in the spinner, the table, the warnings or the errors', async (_name, flag, env) => {
    const exported = await onTerminal([...flag, ...EXPORT, '-o', path.join(dir, 'b.csv')], env as Record<string, string>);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toContain('windows ');
    expect(exported.stderr).not.toMatch(COLOUR);
    const table = await onTerminal([...flag, 'swaps', '--from', '2026-11-01T00:00:00Z', '--to', '2026-11-01T00:30:00Z'], env as Record<string, string>);
    expect(table.stdout).toContain('withdrawnAt');
    expect(table.stdout + table.stderr).not.toMatch(COLOUR);
    const bridges = await onTerminal([...flag, 'bridges'], env as Record<string, string>);
    expect(bridges.stdout).not.toMatch(COLOUR);
    const failed = await onTerminal([...flag, 'tokens', 'nowhere'], env as Record<string, string>);
    expect(failed.code).toBe(4);
    expect(failed.stderr).toMatch(/^swapx: error: unknown chain/);
    expect(failed.stderr).not.toMatch(COLOUR);
  });
});
