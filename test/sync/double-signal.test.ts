/**
 * A second signal (a double Ctrl-C; coreutils `timeout`, which signals the child and its group) may end a sync
 * sooner than the first would, but never silently: the lock is released and the resume line printed, with a
 * cursor the state on disk holds (or passed), and the rerun completes the set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { collect, spawnCli, tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';
import { expectTidy, expectedRows, mirrorRows, readState, syncEnv } from '../helpers/sync.js';
import { until } from '../helpers/wait.js';

const data = { seed: 101, swapsPerHour: 120 };
const NOW = Date.parse('2026-11-12T00:00:00Z');
const SINCE = '2026-11-10T18:00:00Z';
const UNTIL = '2026-11-11T04:00:00Z';

let slow: RunningSandbox;
beforeAll(async () => {
  slow = await startSandbox({ port: 0, ...data, latencyMs: 100, now: () => NOW });
});
afterAll(() => slow.close());

const FOLLOW_UNTIL = '2026-11-11T23:58:00Z';

describe.concurrent('a second signal', () => {
  it.each([
    ['SIGINT then SIGTERM', ['--since', SINCE, '--until', UNTIL, '-q'], 'SIGINT', 'SIGTERM', UNTIL],
    // --follow: the first signal lets the step finish; the second ends it now.
    ['SIGTERM then SIGINT, --follow', ['--since', SINCE, '--follow'], 'SIGTERM', 'SIGINT', FOLLOW_UNTIL],
  ] as const)('%s: exit 130, the lock released, the resume line printed', async (_name, args, first, second, end) => {
    const env = syncEnv(slow);
    const dir = path.join(tempDir('swapx-double-'), 'out');
    const child = spawnCli(['sync', '--out', dir, ...args, '--concurrency', '1'], { env });
    const done = collect(child);
    // Under way: the lock taken, windows being fetched.
    await until(() => fs.existsSync(path.join(dir, '.swapx-sync.lock')));
    await sleep(300);
    // Back to back: the second lands while the first's orderly stop is under way.
    child.kill(first);
    child.kill(second);
    const r = await done;
    expect(r.code).toBe(130);
    const last = r.stderr.trimEnd().split('\n').at(-1)!;
    const cursor = /^swapx: interrupted; synced up to (\S+Z); run the same command again to continue$/.exec(last)?.[1];
    expect(cursor, r.stderr).toBeDefined();
    expect(fs.existsSync(path.join(dir, '.swapx-sync.lock'))).toBe(false);
    expect(Date.parse(readState(dir).cursor)).toBeGreaterThanOrEqual(Date.parse(cursor!));

    const rerun = await runSwapx(['sync', '--out', dir, '--until', end, '-q'], { env });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(mirrorRows(dir)).toEqual(expectedRows(data, SINCE, end, NOW));
    expectTidy(dir);
  });
});
