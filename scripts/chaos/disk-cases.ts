// Cases of a disk that refuses the writes: full, and read-only; once it has room, going on completes the work.
import fs from 'node:fs';
import { remount, roomFor } from './faults.js';
import type { Harness } from './harness.js';
import type { Query } from './queries.js';
import type { CaseRow } from './report.js';
import { exists, runSwapx } from './spawn.js';
import { expectFailure } from './subjects.js';

/**
 * Into a tmpfs too small for it (`sizeShare` of the clean run's size): exit 1 with a one-line "no space
 * left on device" error (an export: nothing under the final name); once the tmpfs is enlarged, going on completes it.
 */
export function fullDisk(harness: Harness, spec: { name: string; query: Query; sizeShare: number }): Promise<CaseRow> {
  return harness.runCase(spec.name, async (row) => {
    const subject = harness.subject(spec.query);
    const reference = await harness.reference(spec.query);
    const sizeKb = Math.ceil((reference.size * spec.sizeShare) / 1024);
    const sandbox = await harness.sandbox();
    try {
      await harness.withMount(spec.name, `size=${sizeKb}k`, async (mnt) => {
        const output = subject.output(mnt);
        const args = subject.args(output);
        const full = await runSwapx(args, harness.env(sandbox));
        row.retries = subject.retries(full.stderr);
        row.faults = `ENOSPC (tmpfs ${sizeKb} KiB) after ${reference.progress(row, output)}`;
        expectFailure(row, full, subject.noSpace);
        if (exists(output) && spec.query.kind === 'export') row.problems.push('a file was left under the final name');
        if (spec.query.kind === 'export' && !full.stderr.includes('windows saved') && exists(`${output}.partial`)) {
          row.problems.push('nothing was said to be saved, yet a .partial was left');
        }
        remount(mnt, `size=${roomFor(reference.size)}k`);
        const run = await runSwapx(subject.again(args), harness.env(sandbox));
        row.retries += subject.retries(run.stderr);
        await harness.finish(row, subject, run, output, reference);
      });
    } finally {
      await harness.stopSandbox(sandbox);
    }
  });
}

/**
 * Into a read-only directory (root ignores permission bits; a read-only mount does not): exit 1 with a
 * one-line "read-only file system" error, nothing written; once writable, going on completes it.
 */
export function readOnly(harness: Harness, spec: { name: string; query: Query }): Promise<CaseRow> {
  return harness.runCase(spec.name, async (row) => {
    const subject = harness.subject(spec.query);
    const reference = await harness.reference(spec.query);
    const sandbox = await harness.sandbox();
    try {
      await harness.withMount(spec.name, `ro,size=${roomFor(reference.size)}k`, async (mnt) => {
        const output = subject.readOnlyOutput(mnt);
        const args = subject.args(output);
        const refused = await runSwapx(args, harness.env(sandbox));
        row.faults = 'EROFS (read-only output dir)';
        expectFailure(row, refused, subject.readOnly);
        if (fs.readdirSync(mnt).length > 0) row.problems.push(`files appeared in a read-only dir: ${fs.readdirSync(mnt).join(', ')}`);
        remount(mnt, 'rw');
        const run = await runSwapx(subject.again(args), harness.env(sandbox));
        row.retries = subject.retries(run.stderr);
        await harness.finish(row, subject, run, output, reference);
      });
    } finally {
      await harness.stopSandbox(sandbox);
    }
  });
}
