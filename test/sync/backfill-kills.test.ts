/**
 * A backfill of a week made of short runs, each killed a second or so after its first request (a
 * container with a deadline: `timeout` sends SIGTERM; a host that dies sends nothing, SIGKILL): every run
 * starts where the last one's durable progress ended, fetches nothing made durable before again (but the
 * re-scan of the last `lag`, for late arrivals), and the backfill finishes with the API's rows, row for row.
 */
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { processCpuSeconds } from '../../scripts/support/process-cpu.js';
import { collect, spawnCli, tempDir } from '../helpers/cli.js';
import { expectTidy, expectedRows, mirrorRows, syncEnv } from '../helpers/sync.js';
import { until } from '../helpers/wait.js';

const H = 3_600_000;
const data = { seed: 61, swapsPerHour: 12 };
const NOW = Date.parse('2026-11-22T00:00:00Z');
const SINCE = '2026-11-14T00:00:00Z';
const UNTIL = '2026-11-21T00:00:00Z';
const LAG = 48 * H;

interface Request {
  run: number;
  filter: string;
  from: number;
  to: number;
}

/** A sandbox of its own per case, logging each request with the run that sent it (the runs are one after another). */
async function caseSandbox(): Promise<{ sandbox: RunningSandbox; requests: Request[]; run: { value: number } }> {
  const requests: Request[] = [];
  const run = { value: 0 };
  const sandbox = await startSandbox({
    port: 0,
    ...data,
    // Slow enough that a whole backfill takes several times a run's second on a fast, quiet machine, so that its
    // runs are killed (with 5 ms, one run finished the week before its kill).
    latencyMs: 25,
    now: () => NOW,
    // Logged when answered: one answered to nobody (status 0, its run killed meanwhile) was fetched by no run.
    onRequest: ({ url, status }) => {
      if (status === 0) return;
      const query = new URL(url, 'http://x').searchParams;
      requests.push({ run: run.value, filter: query.get('filter') ?? '', from: Date.parse(query.get('from') ?? ''), to: Date.parse(query.get('to') ?? '') });
    },
  });
  sandboxes.push(sandbox);
  return { sandbox, requests, run };
}

const sandboxes: RunningSandbox[] = [];
afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
});

interface Cursors {
  cursor: number;
  updatedCursor: number;
}

function cursors(dir: string): Cursors | undefined {
  try {
    const state = JSON.parse(fs.readFileSync(path.join(dir, '.swapx-sync.json'), 'utf8')) as Record<string, string>;
    return { cursor: Date.parse(state.cursor!), updatedCursor: Date.parse(state.updatedCursor!) };
  } catch {
    return undefined;
  }
}

/** A killed run's share of the CPU a run uses in its first second or so alone (about 650 ms in two seconds). */
const RUN_CPU_MS = 400;

/** Whether the process `pid` has used `ms` of CPU (or has ended: nothing left to wait for). */
function ranFor(pid: number, ms: number): boolean {
  try {
    return processCpuSeconds(pid) * 1000 >= ms;
  } catch {
    return true;
  }
}

/** Whether the process `pid` holds the mirror's lock. */
function holds(dir: string, pid: number): boolean {
  try {
    return (JSON.parse(fs.readFileSync(path.join(dir, '.swapx-sync.lock'), 'utf8')) as { pid: number }).pid === pid;
  } catch {
    return false;
  }
}

/** Runs the backfill again and again, each run killed with `signal` `afterMs` after its first request, until one finishes. */
async function backfill(
  dir: string,
  signal: NodeJS.Signals,
  afterMs: number,
  extra: string[],
): Promise<{ runs: number; states: (Cursors | undefined)[]; requests: Request[] }> {
  const { sandbox, requests, run: counter } = await caseSandbox();
  const env = syncEnv(sandbox);
  const states: (Cursors | undefined)[] = [];
  for (let run = 1; run <= 80; run += 1) {
    counter.value = run;
    const child = spawnCli(['sync', '--out', dir, '--since', SINCE, '--until', UNTIL, '-q', ...extra], { env });
    const done = collect(child);
    // Counted from the moment the run holds the lock (after its first request, its signal handlers long set): a process
    // start slowed by a loaded machine is not the run's time. (A request is logged when it is answered, so one of the
    // run before, answered late, cannot say this run has started.)
    // And not before the run has had `RUN_CPU_MS` of CPU: on a machine loaded by the other test files, two seconds can
    // be a run that did next to nothing, and a backfill of such runs takes many times the runs (and CPU) it should.
    const finished = await Promise.race([
      until(() => holds(dir, child.pid!), 60_000)
        .then(() => sleep(afterMs))
        .then(() => until(() => ranFor(child.pid!, RUN_CPU_MS), 60_000))
        .then(
          () => false,
          () => false,
        ),
      done.then(() => true),
    ]);
    if (!finished) child.kill(signal);
    const r = await done;
    states.push(cursors(dir));
    if (r.code === 0) return { runs: run, states, requests };
    if (signal !== 'SIGTERM') continue;
    // A SIGTERM in the last moments of a run that has ended (its lock released, Node closing its handles and the
    // signal's handler with them) kills the process by the signal's default: that run was not stopped midway.
    if (r.signal === 'SIGTERM') expect(fs.existsSync(path.join(dir, '.swapx-sync.lock')), 'killed by SIGTERM holding its lock').toBe(false);
    else expect(r.code, r.stderr).toBe(130);
  }
  throw new Error(`the backfill of ${dir} did not finish in 80 runs; its cursors: ${JSON.stringify(states)}`);
}

function expectMonotonic(states: (Cursors | undefined)[]): void {
  const known = states.filter((state): state is Cursors => state !== undefined);
  for (let i = 1; i < known.length; i += 1) {
    expect(known[i]!.cursor).toBeGreaterThanOrEqual(known[i - 1]!.cursor);
    expect(known[i]!.updatedCursor).toBeGreaterThanOrEqual(known[i - 1]!.updatedCursor);
  }
}

/** No run fetched a Completed window wholly behind the cursor a run before it made durable, but for the re-scan's lag. */
function expectNothingFetchedTwice(requests: Request[], states: (Cursors | undefined)[]): void {
  // (A zero-width window is the clock read, not a fetch.)
  for (const request of requests.filter((r) => r.to > r.from)) {
    const before = states[request.run - 2];
    if (before === undefined || request.filter !== 'Completed') continue;
    if (request.to > NOW - LAG) continue;
    expect(request.from, `run ${request.run} fetched ${new Date(request.from).toISOString()} again`).toBeGreaterThanOrEqual(before.cursor);
  }
}

// Each case is a sequence of spawned runs, killed on a timer: minutes on a loaded machine, not seconds.
describe.concurrent('a backfill killed every second', { timeout: 300_000 }, () => {
  it('by SIGTERM (timeout): each run continues where the last stopped, and the last one ends with the API rows', async () => {
    const dir = path.join(tempDir('swapx-backfill-term-'), 'out');
    const { runs, states, requests } = await backfill(dir, 'SIGTERM', 1000, []);
    expect(runs, 'runs').toBeGreaterThan(1);
    expectMonotonic(states);
    expectNothingFetchedTwice(requests, states);
    expect(mirrorRows(dir)).toEqual(expectedRows(data, SINCE, UNTIL, NOW));
    expectTidy(dir);
  });

  it('by SIGKILL 2 s into each run, the plain command (it commits after its first window, then 1 s later, …): the same', async () => {
    const dir = path.join(tempDir('swapx-backfill-kill-'), 'out');
    const { runs, states } = await backfill(dir, 'SIGKILL', 2000, []);
    expect(runs).toBeGreaterThan(1);
    expectMonotonic(states);
    expect(mirrorRows(dir)).toEqual(expectedRows(data, SINCE, UNTIL, NOW));
    expectTidy(dir);
  });
});
