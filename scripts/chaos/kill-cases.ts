// Cases of a run killed with SIGKILL at a moment of its work, then gone on with; and the clean run with latency
// that says how long the work takes.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Harness } from './harness.js';
import type { Query } from './queries.js';
import type { CaseRow } from './report.js';
import { runSwapx, spawnSwapx } from './spawn.js';

/** What a clean or a killed case starts from: its query's subject and reference, a watched sandbox with latency, its output. */
async function watchedCase(harness: Harness, spec: { name: string; query: Query; latencyMs?: number }) {
  const subject = harness.subject(spec.query);
  const reference = await harness.reference(spec.query);
  const { sandbox, firstAnswer } = await harness.watchedSandbox({ latencyMs: spec.latencyMs ?? 25 });
  return { subject, reference, sandbox, firstAnswer, output: subject.output(harness.caseDir(spec.name)) };
}

/** With latency but no fault: the baseline, and how long a run takes (row.runMs) to spread kill moments over. */
export function clean(harness: Harness, spec: { name: string; query: Query; latencyMs?: number }): Promise<CaseRow> {
  return harness.runCase(
    spec.name,
    async (row) => {
      const { subject, reference, sandbox, firstAnswer, output } = await watchedCase(harness, spec);
      try {
        const run = await runSwapx(subject.args(output), harness.env(sandbox));
        row.faults = `none (latency ${spec.latencyMs ?? 25} ms)`;
        row.runMs = Math.round(performance.now() - (await firstAnswer));
        row.retries = subject.retries(run.stderr);
        await harness.finish(row, subject, run, output, reference);
      } finally {
        await harness.stopSandbox(sandbox);
      }
    },
    true,
  );
}

/** Killed with SIGKILL `moment` ms after the sandbox's first answer to it, then gone on with (export: --resume; sync: run again). */
export function kill(harness: Harness, spec: { name: string; query: Query; moment: number; latencyMs?: number }): Promise<CaseRow> {
  return harness.runCase(spec.name, async (row) => {
    const { subject, reference, sandbox, firstAnswer, output } = await watchedCase(harness, spec);
    try {
      const args = subject.args(output);
      const { child, done } = spawnSwapx(args, harness.env(sandbox));
      await Promise.race([firstAnswer.then(() => sleep(spec.moment)), done]);
      child.kill('SIGKILL');
      const killed = await done;
      const state = reference.progress(row, output);
      row.faults = killed.signal === 'SIGKILL' ? `SIGKILL at +${spec.moment} ms (${state})` : `none: done before +${spec.moment} ms`;
      row.retries = subject.retries(killed.stderr);
      if (subject.unfinished(output)) {
        const run = await runSwapx(subject.again(args), harness.env(sandbox));
        subject.checkAgain(row, run, state);
        row.retries += subject.retries(run.stderr);
        await harness.finish(row, subject, run, output, reference);
      } else {
        // Done (file renamed, manifest removed) before it died, or before the kill: nothing to go on with.
        if (killed.signal === 'SIGKILL') row.faults = `SIGKILL at +${spec.moment} ms (after the rename, before the exit)`;
        await harness.finish(row, subject, { ...killed, code: killed.signal === 'SIGKILL' ? 0 : killed.code }, output, reference);
      }
    } finally {
      await harness.stopSandbox(sandbox);
    }
  });
}
