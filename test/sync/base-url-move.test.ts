/**
 * A mirror follows its API to a new address (another host of the same API) only when the user says so
 * (--move-base-url): without the word it is refused as another query (exit 2, naming the flag); with it, the
 * mirror continues from its cursors, its state records the new address, and the summary says the move happened.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';
import { expectTidy, expectedRows, mirrorRows, readState, stepLines, syncEnv } from '../helpers/sync.js';

const data = { seed: 91, swapsPerHour: 60 };
const NOW = Date.parse('2026-11-12T00:00:00Z');
const SINCE = '2026-11-11T08:00:00Z';
let oldHost: RunningSandbox;
let newHost: RunningSandbox;
beforeAll(async () => {
  [oldHost, newHost] = await Promise.all([startSandbox({ port: 0, ...data, now: () => NOW }), startSandbox({ port: 0, ...data, now: () => NOW })]);
});
afterAll(async () => {
  await Promise.all([oldHost.close(), newHost.close()]);
});

async function mirrored(): Promise<string> {
  const dir = path.join(tempDir('swapx-move-'), 'out');
  const r = await runSwapx(['sync', '--out', dir, '--since', SINCE, '--until', '2026-11-11T10:00:00Z', '-q'], { env: syncEnv(oldHost) });
  expect(r.code, r.stderr).toBe(0);
  return dir;
}

describe.concurrent('sync to a new base URL', () => {
  it('without --move-base-url: exit 2, the state and the data untouched', async () => {
    const dir = await mirrored();
    const before = fs.readFileSync(path.join(dir, '.swapx-sync.json'), 'utf8');
    const r = await runSwapx(['sync', '--out', dir, '--until', '2026-11-11T12:00:00Z'], { env: syncEnv(newHost) });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `swapx: error: ${dir} holds a sync of another query (base URL was ${JSON.stringify(oldHost.url)}, now ${JSON.stringify(newHost.url)}); if the API moved there, run again with --move-base-url to continue this mirror, else sync into a new --out dir\n`,
    );
    expect(fs.readFileSync(path.join(dir, '.swapx-sync.json'), 'utf8')).toBe(before);
  });

  it('with --move-base-url: continues from the cursor, records the new URL, says so; later runs need no flag', async () => {
    const dir = await mirrored();
    const env = syncEnv(newHost);
    const r = await runSwapx(['sync', '--out', dir, '--until', '2026-11-11T12:00:00Z', '--move-base-url'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split('\n')[0]).toBe(`${dir} follows its API from ${oldHost.url} to ${newHost.url}`);
    expect((readState(dir).query as { baseUrl: string }).baseUrl).toBe(newHost.url);
    const next = await runSwapx(['sync', '--out', dir, '--until', '2026-11-11T14:00:00Z', '--summary-json'], { env });
    expect(next.code, next.stderr).toBe(0);
    expect(stepLines(next)[0]).toMatchObject({ complete: true, cursor: '2026-11-11T14:00:00Z' });
    expect(mirrorRows(dir)).toEqual(expectedRows(data, SINCE, '2026-11-11T14:00:00Z', NOW));
    expectTidy(dir);
  });

  it('--summary-json: the move is a line of its own', async () => {
    const dir = await mirrored();
    const r = await runSwapx(['sync', '--out', dir, '--until', '2026-11-11T12:00:00Z', '--move-base-url', '--summary-json'], { env: syncEnv(newHost) });
    expect(r.code, r.stderr).toBe(0);
    const [moved, step] = r.stderr
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(moved).toEqual({ event: 'sync-moved', time: moved!.time, from: oldHost.url, to: newHost.url });
    expect(step).toMatchObject({ event: 'sync-step', complete: true });
  });
});
