// Cases of a run stopped by its user or its host, again and again or twice at once: a backfill made of
// runs each killed after a while must move forward and finish, and a second signal must still release the
// lock and say how far the mirror (or the export) got, and how to go on.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { rowDifferences, syncedRows } from './compare.js';
import type { Harness } from './harness.js';
import type { ExportQuery, SyncQuery } from './queries.js';
import type { CaseRow } from './report.js';
import { errorLines, firstLine, type Run, runSwapx, spawnSwapx } from './spawn.js';

const LOCK = '.swapx-sync.lock';

/** The completions cursor of a sync dir's state, epoch ms (NaN without a state). */
function cursorOf(dir: string): number {
  try {
    return Date.parse((JSON.parse(fs.readFileSync(path.join(dir, '.swapx-sync.json'), 'utf8')) as { cursor: string }).cursor);
  } catch {
    return Number.NaN;
  }
}

/** Resolves once `check` holds or `done` settles, polling every few ms. */
async function until(check: () => boolean, done: Promise<unknown>): Promise<void> {
  let finished = false;
  void done.then(() => {
    finished = true;
  });
  while (!check() && !finished) await sleep(5);
}

/**
 * A backfill (a range of weeks) of data of its own (`swapsPerHour`), each run killed with `signal` `everyMs` after
 * it took its lock, run again until one finishes (at most `maxRuns`). The cursor must never move back, the runs
 * must finish, and the mirror must hold what a clean run of the same data holds, row for row.
 */
export function backfillKills(
  harness: Harness,
  spec: { name: string; query: SyncQuery; swapsPerHour: number; signal: 'SIGTERM' | 'SIGKILL'; everyMs: number; checkpoint: string; maxRuns?: number },
): Promise<CaseRow> {
  return harness.runCase(spec.name, async (row) => {
    const subject = harness.subject(spec.query);
    const data = { swapsPerHour: spec.swapsPerHour };
    const cleanDir = subject.output(harness.caseDir(`${spec.name} clean`));
    const cleanSandbox = await harness.sandbox(data);
    try {
      const r = await runSwapx(subject.args(cleanDir, ['-q']), harness.env(cleanSandbox));
      if (r.code !== 0) throw new Error(`the clean backfill failed (exit ${r.code}): ${firstLine(r.stderr)}`);
    } finally {
      await harness.stopSandbox(cleanSandbox);
    }
    const expected = syncedRows(cleanDir);
    const sandbox = await harness.sandbox({ ...data, latencyMs: 10 });
    try {
      const dir = subject.output(harness.caseDir(spec.name));
      const args = subject.args(dir, ['--checkpoint-every', spec.checkpoint]);
      let cursor = Number.NaN;
      let run: Run | undefined;
      let runs = 0;
      while (runs < (spec.maxRuns ?? 60) && run?.code !== 0) {
        runs += 1;
        const { child, done } = spawnSwapx(args, harness.env(sandbox));
        await until(() => fs.existsSync(path.join(dir, LOCK)), done);
        await Promise.race([sleep(spec.everyMs), done]);
        child.kill(spec.signal);
        run = await done;
        row.retries += subject.retries(run.stderr);
        const now = cursorOf(dir);
        if (now < cursor) row.problems.push(`run ${runs} moved the cursor back, from ${new Date(cursor).toISOString()} to ${new Date(now).toISOString()}`);
        if (!Number.isNaN(now)) cursor = now;
      }
      row.faults = `${spec.signal} ${spec.everyMs} ms into each run (--checkpoint-every ${spec.checkpoint}): ${runs} runs`;
      if (run?.code !== 0) row.problems.push(`not finished in ${runs} runs; the cursor is at ${new Date(cursor).toISOString()}`);
      if (run) subject.checkFinished(row, run, dir);
      row.rows = expected.length;
      row.differences = rowDifferences(fs.existsSync(dir) ? syncedRows(dir) : [], expected);
    } finally {
      await harness.stopSandbox(sandbox);
    }
  });
}

/**
 * Two signals back to back (`first`, then `second`: a double Ctrl-C, or `timeout` signalling the process and its
 * group) once the run has written its first partition: exit 130, the lock released, the last line the resume line;
 * the same command run again completes the mirror.
 */
export function doubleSignal(
  harness: Harness,
  spec: { name: string; query: SyncQuery; first: NodeJS.Signals; second: NodeJS.Signals; latencyMs?: number },
): Promise<CaseRow> {
  return harness.runCase(spec.name, async (row) => {
    const subject = harness.subject(spec.query);
    const reference = await harness.reference(spec.query);
    const { sandbox } = await harness.watchedSandbox({ latencyMs: spec.latencyMs ?? 25 });
    try {
      const dir = subject.output(harness.caseDir(spec.name));
      const args = subject.args(dir);
      const { child, done } = spawnSwapx(args, harness.env(sandbox));
      await until(() => fs.existsSync(dir) && fs.readdirSync(dir).some((name) => name.startsWith('date=')), done);
      child.kill(spec.first);
      child.kill(spec.second);
      const stopped = await done;
      row.faults = `${spec.first} + ${spec.second} after the first partition`;
      row.retries = subject.retries(stopped.stderr);
      const last = errorLines(stopped.stderr).at(-1) ?? '';
      if (stopped.code === 0) row.notes.push('done before the signals');
      else {
        if (stopped.code !== 130) row.problems.push(`expected exit 130, got ${stopped.code ?? stopped.signal}`);
        if (!/^swapx: interrupted; synced up to \S+Z; run the same command again to continue$/.test(last)) {
          row.problems.push(`no resume line at the end: ${last || '(nothing)'}`);
        }
        if (fs.existsSync(path.join(dir, LOCK))) row.problems.push('the lock was left behind');
      }
      const run = await runSwapx(subject.again(args), harness.env(sandbox));
      row.retries += subject.retries(run.stderr);
      await harness.finish(row, subject, run, dir, reference);
    } finally {
      await harness.stopSandbox(sandbox);
    }
  });
}

/** The windows done that a manifest on disk counts (0 without one, or while it is being replaced). */
function windowsSaved(manifest: string): number {
  try {
    return Number((JSON.parse(fs.readFileSync(manifest, 'utf8')) as { windowsDone?: unknown }).windowsDone) || 0;
  } catch {
    return 0;
  }
}

/** The words of a command printed for a POSIX shell (src/cli/shell-quote.ts: bare words and '…' with '\\'' inside). */
function shellWords(command: string): string[] {
  const words: string[] = [];
  for (const match of command.matchAll(/(?:[^\s'\\]+|'[^']*'|\\.)+/g)) {
    words.push(match[0].replace(/'([^']*)'|\\(.)|([^'\\]+)/g, (_all, quoted?: string, escaped?: string, bare?: string) => quoted ?? escaped ?? bare ?? ''));
  }
  return words;
}

/**
 * An export to a file stopped by two signals `gapMs` apart (a double Ctrl-C, or `timeout`) once its first window is
 * saved: exit 130, the lock released, the last line says what is saved and the command that resumes it; that
 * command, run as printed, completes the file byte for byte as a clean run writes it.
 */
export function exportDoubleSignal(
  harness: Harness,
  spec: { name: string; query: ExportQuery; first: NodeJS.Signals; second: NodeJS.Signals; gapMs: number; latencyMs?: number },
): Promise<CaseRow> {
  return harness.runCase(spec.name, async (row) => {
    const subject = harness.subject(spec.query);
    const reference = await harness.reference(spec.query);
    const { sandbox } = await harness.watchedSandbox({ latencyMs: spec.latencyMs ?? 25 });
    try {
      const file = subject.output(harness.caseDir(spec.name));
      const { child, done } = spawnSwapx(subject.args(file), harness.env(sandbox));
      await until(() => windowsSaved(`${file}.partial.manifest.json`) > 0, done);
      child.kill(spec.first);
      await sleep(spec.gapMs);
      child.kill(spec.second);
      const stopped = await done;
      row.faults = `${spec.first} + ${spec.second} ${spec.gapMs} ms apart, after the first window saved`;
      row.retries = subject.retries(stopped.stderr);
      if (stopped.code === 0) {
        row.notes.push('done before the signals');
        await harness.finish(row, subject, stopped, file, reference);
        return;
      }
      if (stopped.code !== 130) row.problems.push(`expected exit 130, got ${stopped.code ?? stopped.signal}`);
      if (fs.existsSync(`${file}.partial.lock`)) row.problems.push('the lock was left behind');
      const last = errorLines(stopped.stderr).at(-1) ?? '';
      const resume = /^swapx: interrupted; (\d+)\/\d+ windows saved in \S+; resume with: (swapx swaps .* --resume)$/.exec(last);
      if (!resume) {
        row.problems.push(`no resume command at the end: ${last || '(nothing)'}`);
        return;
      }
      row.notes.push(`${resume[1]} windows saved`);
      // The command as printed, as a user would paste it (its first word is the CLI).
      const run = await runSwapx(shellWords(resume[2]!).slice(1), harness.env(sandbox));
      row.retries += subject.retries(run.stderr);
      subject.checkAgain(row, run, 'windows');
      await harness.finish(row, subject, run, file, reference);
    } finally {
      await harness.stopSandbox(sandbox);
    }
  });
}
