// Cases through faults of the API: a fault rate the retries ride through, and the sandbox going away and coming back.
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FaultKind } from '../../src/sandbox/index.js';
import { exportRetries } from './compare.js';
import { addFaults, type FaultCounts, faultsText } from './faults.js';
import type { Harness } from './harness.js';
import type { ExportQuery, Query } from './queries.js';
import type { CaseRow } from './report.js';
import { firstLine, runSwapx, spawnSwapx } from './spawn.js';

/** Through a fault rate: exit 0 expected (retries ride through); should a window still fail after its retries, the run goes on (noted). */
export function faultRate(
  harness: Harness,
  spec: { name: string; query: Query; rate: number; kinds?: FaultKind[]; slowMs?: number; timeout?: string; retries?: number },
): Promise<CaseRow> {
  return harness.runCase(spec.name, async (row) => {
    const subject = harness.subject(spec.query);
    const reference = await harness.reference(spec.query);
    const sandbox = await harness.sandbox({ faultRate: spec.rate, faultKinds: spec.kinds, slowMs: spec.slowMs });
    try {
      const output = subject.output(harness.caseDir(spec.name));
      const args = subject.args(output, ['--timeout', spec.timeout ?? '1s', '--retries', String(spec.retries ?? 10)]);
      const run = await harness.runThrough(row, subject, args, harness.env(sandbox));
      const stats = sandbox.stats();
      row.faults = `${faultsText(stats.faults)} of ${stats.requests} requests`;
      await harness.finish(row, subject, run, output, reference);
      if (Object.values(stats.faults).every((n) => n === 0)) row.problems.push('no fault was injected');
    } finally {
      await harness.stopSandbox(sandbox);
    }
  });
}

/**
 * The sandbox stopped once `afterWindows` windows are saved, and started again on the same port
 * `outageMs` later. With enough retries the export rides through; with `--retries 0` it exits 1 and
 * `--resume` (once the sandbox is back) completes it.
 */
export function sandboxRestart(
  harness: Harness,
  spec: { name: string; query: ExportQuery; retries: number; outageMs?: number; afterWindows?: number; latencyMs?: number },
): Promise<CaseRow> {
  return harness.runCase(spec.name, async (row) => {
    const subject = harness.subject(spec.query);
    const reference = await harness.reference(spec.query);
    const options = { latencyMs: spec.latencyMs ?? 25 };
    let sandbox = await harness.sandbox(options);
    const port = sandbox.port;
    const faults: FaultCounts = {};
    let live = true;
    try {
      const file = subject.output(harness.caseDir(spec.name));
      const args = subject.args(file, ['--retries', String(spec.retries)]);
      const { done } = spawnSwapx(args, harness.env(sandbox));
      const manifest = `${file}.partial.manifest.json`;
      const want = spec.afterWindows ?? 2;
      const deadline = Date.now() + 30_000;
      let finished = false;
      void done.then(() => {
        finished = true;
      });
      for (;;) {
        let windowsDone = 0;
        try {
          windowsDone = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { windowsDone: number }).windowsDone;
        } catch {
          // Not written yet, or being replaced.
        }
        if (windowsDone >= want || finished || Date.now() > deadline) break;
        await sleep(5);
      }
      addFaults(faults, sandbox.stats().faults);
      live = false;
      await harness.stopSandbox(sandbox);
      const outageMs = spec.outageMs ?? 1500;
      row.faults = `outage of ${outageMs} ms after ${finished ? 'the end (too late)' : reference.progress(row, file)}`;
      if (finished) row.problems.push('the export ended before the sandbox stopped: make the query longer');
      await sleep(outageMs);
      sandbox = await harness.restart(port, options);
      live = true;
      let run = await done;
      row.retries = exportRetries(run.stderr);
      if (spec.retries === 0 && run.code !== 1) row.problems.push(`with --retries 0 the outage should end the export with exit 1, not ${run.code}`);
      if (run.code === 1) {
        const message = firstLine(run.stderr);
        if (!/^swapx: error: .+; resume with: swapx swaps .+ --resume$/.test(message)) row.problems.push(`unclear failure message: ${message}`);
        row.notes.push(`exit 1: ${message}`);
        run = await runSwapx(subject.again(args), harness.env(sandbox));
        row.retries += exportRetries(run.stderr);
      }
      await harness.finish(row, subject, run, file, reference);
    } finally {
      if (live) {
        addFaults(faults, sandbox.stats().faults);
        await harness.stopSandbox(sandbox);
      }
    }
    const injected = faultsText(faults);
    if (injected !== 'none') row.faults += `, ${injected}`;
  });
}
