/** The bulk exporter where a process matters: resume after SIGKILL, and Ctrl-C (SIGINT) of the real bin. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { collect, spawnCli, tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';
import { DATA, FROM, TO, envIn, range, referenceExport } from '../helpers/swaps-fixture.js';

let plain: RunningSandbox;
let slow: RunningSandbox;
let dir: string;
let reference: string;

const envFor = (sandbox: RunningSandbox) => envIn(dir, sandbox);

beforeAll(async () => {
  dir = tempDir();
  plain = await startSandbox({ port: 0, ...DATA });
  slow = await startSandbox({ port: 0, ...DATA, latencyMs: 40 });
  reference = await referenceExport(envFor(plain));
});
afterAll(async () => {
  await Promise.all([plain.close(), slow.close()]);
});

// Each case has its own file and mostly waits on the slow sandbox: they run side by side.
describe.concurrent('swapx swaps: a killed or interrupted process', () => {
  // Checkpoints come at most every 250 ms: one window at a time at 40 ms latency gives several.
  it.each([1, 8, 20])('resumes after SIGKILL (a checkpoint of %i+ windows) to the same bytes as an uninterrupted run', async (afterWindows) => {
    const file = path.join(dir, `killed-${afterWindows}.jsonl`);
    const args = ['swaps', ...range, '--window', '5m', '--concurrency', '1', '-o', file];
    const child = spawnCli(args, { env: envFor(slow) });
    const done = collect(child);
    const manifest = `${file}.partial.manifest.json`;
    for (let i = 0; i < 400; i += 1) {
      const m = fs.existsSync(manifest) ? (JSON.parse(fs.readFileSync(manifest, 'utf8') || '{}') as { windowsDone?: number }) : {};
      if ((m.windowsDone ?? 0) >= afterWindows) break;
      await sleep(10);
    }
    child.kill('SIGKILL');
    const killed = await done;
    expect(killed.signal).toBe('SIGKILL');
    expect(fs.existsSync(file)).toBe(false);
    // Without --resume: the exact command that resumes it.
    const refused = await runSwapx(args, { env: envFor(slow) });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`resume it with: swapx swaps --from ${FROM} --to ${TO} --window 5m -o ${file} --resume`);
    const resumed = await runSwapx([...args, '--resume'], { env: envFor(slow) });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(/^Resuming: \d+\/36 windows already done\n/);
    expect(fs.readFileSync(file, 'utf8')).toBe(reference);
  });

  it('SIGINT stops, keeps what is complete, exits 130 with the resume command', async () => {
    const file = path.join(dir, 'interrupted.csv');
    const child = spawnCli(['swaps', ...range, '--window', '5m', '--concurrency', '1', '-o', file], { env: envFor(slow) });
    const done = collect(child);
    // Once a window is checkpointed: a run stopped before that leaves nothing to resume.
    const manifest = `${file}.partial.manifest.json`;
    while (!fs.existsSync(manifest) || ((JSON.parse(fs.readFileSync(manifest, 'utf8') || '{}') as { windowsDone?: number }).windowsDone ?? 0) < 1)
      await sleep(10);
    child.kill('SIGINT');
    const r = await done;
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(
      new RegExp(
        `swapx: interrupted; \\d+/36 windows saved in ${file}\\.partial; resume with: swapx swaps --from ${FROM} --to ${TO} --window 5m -o ${file} --resume\\n$`,
      ),
    );
    const resumed = await runSwapx(['swaps', ...range, '--window', '5m', '-o', file, '--resume', '-q'], { env: envFor(slow) });
    expect(resumed.code).toBe(0);
    const csv = await runSwapx(['swaps', ...range, '--csv', '-q'], { env: envFor(plain) });
    expect(fs.readFileSync(file, 'utf8')).toBe(csv.stdout);
  });
});
