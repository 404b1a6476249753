// The catch-up of a sync mirror days behind: updates after completion, through a kill or faults.
import { setTimeout as sleep } from 'node:timers/promises';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { syncRetries } from './compare.js';
import { faultsText } from './faults.js';
import type { Harness } from './harness.js';
import { DAY, type SyncQuery } from './queries.js';
import type { CaseRow } from './report.js';
import { firstLine, runSwapx, spawnSwapx } from './spawn.js';

/**
 * Updates after completion: a clean sync of the query at the chaos clock, then the sandbox restarted on the
 * same port with its clock `laterDays` on (first updates, corrections after 2 and 5 days happened since) and
 * latency, and the catch-up run killed with SIGKILL `moment` ms after the first answer (or through fault rate
 * `rate`), then run again. It must hold, row for row, what a clean sync made at the later clock holds.
 */
export function syncUpdates(
  harness: Harness,
  spec: { name: string; query: SyncQuery; laterDays: number; moment?: number; rate?: number; latencyMs?: number },
): Promise<CaseRow> {
  return harness.runCase(spec.name, async (row) => {
    const subject = harness.subject(spec.query);
    const later = harness.now + spec.laterDays * DAY;
    const reference = await harness.reference(spec.query, later);
    const dir = subject.output(harness.caseDir(spec.name));
    let sandbox = await harness.sandbox();
    const port = sandbox.port;
    let live = true;
    try {
      const args = subject.args(dir);
      const first = await runSwapx(args, harness.env(sandbox));
      if (first.code !== 0) row.problems.push(`the first sync failed (exit ${first.code}): ${firstLine(first.stderr)}`);
      live = false;
      await harness.stopSandbox(sandbox);
      let answered: (at: number) => void = () => {};
      const firstAnswer = new Promise<number>((resolve) => {
        answered = resolve;
      });
      const options: SandboxOptions = { now: () => later, latencyMs: spec.latencyMs ?? 10, onRequest: () => answered(performance.now()) };
      if (spec.rate !== undefined) Object.assign(options, { faultRate: spec.rate, retryAfterSeconds: 0 });
      sandbox = await harness.restart(port, options);
      live = true;
      const catchUp = [...args, '--retries', '15', '--timeout', '2s'];
      row.faults = `+${spec.laterDays} d, none`;
      if (spec.moment !== undefined) {
        const { child, done } = spawnSwapx(catchUp, harness.env(sandbox));
        await Promise.race([firstAnswer.then(() => sleep(spec.moment)), done]);
        child.kill('SIGKILL');
        const killed = await done;
        row.faults =
          killed.signal === 'SIGKILL'
            ? `+${spec.laterDays} d, SIGKILL at +${spec.moment} ms of the catch-up`
            : `+${spec.laterDays} d, none: done before +${spec.moment} ms`;
        row.retries = syncRetries(killed.stderr);
      }
      const run = await harness.runThrough(row, subject, catchUp, harness.env(sandbox));
      if (spec.rate !== undefined) row.faults = `+${spec.laterDays} d, ${faultsText(sandbox.stats().faults)} of ${sandbox.stats().requests} requests`;
      const updated = [...run.stderr.matchAll(/"updatedSwaps":(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
      if (spec.moment === undefined && updated === 0) row.problems.push('the catch-up updated no swap');
      await harness.finish(row, subject, run, dir, reference);
    } finally {
      if (live) await harness.stopSandbox(sandbox);
    }
  });
}
