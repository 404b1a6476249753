// An export or a sync, as the case runners need it (Subject), and how a failed run is judged.
import path from 'node:path';
import { exportRetries, syncLeftovers, syncRetries } from './compare.js';
import type { Subject } from './harness.js';
import { exportArgs, type Query, syncArgs } from './queries.js';
import type { CaseRow } from './report.js';
import { errorLines, exists, firstLine, type Run } from './spawn.js';

export function subjectFor(query: Query): Subject {
  if (query.kind === 'export') {
    const ext = query.ext ?? 'jsonl';
    return {
      output: (dir) => path.join(dir, `x.${ext}`),
      readOnlyOutput: (mnt) => path.join(mnt, `x.${ext}`),
      args: (file, extra) => exportArgs(query, file, extra),
      retries: exportRetries,
      again: (args) => [...args, '--resume'],
      againNote: 'resumed',
      unfinished: (file) => !exists(file) || exists(`${file}.partial.manifest.json`),
      checkAgain: (row, run, state) => {
        if (run.code === 0 && state.endsWith('windows') && !/^Resuming: \d+\/\d+ windows already done/m.test(run.stderr))
          row.problems.push('the resume did not say it resumed');
      },
      // Nothing is saved when the disk fills before the first checkpoint (a fast run): then nothing is left either.
      noSpace: /^swapx: error: writing \S+: no space left on device(; \d+\/\d+ windows saved in \S+; resume with: swapx swaps .* --resume)?$/,
      readOnly: /^swapx: error: read-only file system/,
      checkFinished: (row, run, file) => {
        if (run.code !== 0) row.problems.push(`exit ${run.code ?? run.signal}: ${firstLine(run.stderr)}`);
        for (const leftover of [`${file}.partial`, `${file}.partial.manifest.json`, `${file}.partial.rowgroups`]) {
          if (exists(leftover)) row.problems.push(`${path.basename(leftover)} left behind`);
        }
        if (!exists(file)) row.problems.push('no file under the final name');
      },
    };
  }
  return {
    output: (dir) => path.join(dir, 'out'),
    readOnlyOutput: (mnt) => mnt,
    args: (dir, extra) => syncArgs(query, dir, extra),
    retries: syncRetries,
    // The cron line that follows a first run gives no --since: a run that recorded the mirror's start is gone on with
    // that (it failed with exit 2 when a failed first run was discarded); one that did not, with its first command.
    again: (args) => {
      const dir = args[args.indexOf('--out') + 1]!;
      const since = args.indexOf('--since');
      return since >= 0 && exists(path.join(dir, '.swapx-sync.json')) ? [...args.slice(0, since), ...args.slice(since + 2)] : args;
    },
    againNote: 'run again (the cron line, without --since, once the start is recorded)',
    unfinished: () => true,
    checkAgain: () => {},
    noSpace: /^swapx: error: writing \S+: no space left on device; synced up to \S+Z; run the same command again to continue$/,
    readOnly: /^swapx: error: .*read-only file system/,
    checkFinished: (row, run, dir) => {
      if (run.code !== 0) row.problems.push(`exit ${run.code ?? run.signal}: ${firstLine(run.stderr)}`);
      const leftovers = exists(dir) ? syncLeftovers(dir) : [];
      if (leftovers.length) row.problems.push(`left behind: ${leftovers.join(', ')}`);
    },
  };
}

/** A failed run must exit 1 with exactly one error line matching `pattern` (summary lines aside). */
export function expectFailure(row: CaseRow, run: Run, pattern: RegExp): void {
  const errors = errorLines(run.stderr);
  row.notes.push(`exit ${run.code}: ${errors.join(' / ') || '(no error line)'}`);
  if (run.code !== 1) row.problems.push(`expected exit 1, got ${run.code ?? run.signal}`);
  if (errors.length !== 1 || !pattern.test(errors[0] ?? ''))
    row.problems.push(`expected one error line like ${pattern}, got: ${errors.join(' / ') || firstLine(run.stderr) || '(nothing)'}`);
}
