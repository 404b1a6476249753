/**
 * What an export to -o FILE does with what is already there: start, resume
 * the unfinished export (its own range, when this run's range was read
 * against the clock), or stop because the file is complete. Refusals carry
 * the saved plan, so the shell can print the command that resumes it.
 */
import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import { UnresumableError } from '../api/errors.js';
import { TargetRefusedError } from './errors.js';
import { formatOf } from '../formats/registry.js';
import { compareSaved, type Manifest, readManifest } from './manifest.js';
import type { Difference } from '../util/fingerprint.js';
import { partialPaths } from './partial-file.js';
import type { ExportPlan } from './plan.js';

export type TargetDecision =
  /** nothing to keep: a new export (or --force) */
  | { action: 'start'; plan: ExportPlan }
  /** continue from the manifest's checkpoint; `ownRange`: the saved range replaced this run's relative one */
  | { action: 'resume'; plan: ExportPlan; manifest: Manifest; ownRange: boolean; baseUrlWas: string | undefined }
  /** --resume of a file that is complete: nothing to do */
  | { action: 'complete' }
  | { action: 'refuse'; reason: 'exists' }
  | { action: 'refuse'; reason: 'unfinished' | 'different'; saved: ExportPlan; manifest: Manifest; differences: Difference[] };

export async function decideTarget(plan: ExportPlan, baseUrl: string, options: { resume: boolean; force: boolean }): Promise<TargetDecision> {
  const target = plan.output.file!;
  const paths = partialPaths(target);
  // What FILE is (a device, a FIFO, a link) was decided with the output options (fs/output-target.ts).
  const existing = await statOf(target);
  if (options.force) return { action: 'start', plan };
  const manifest = await readManifest(paths.manifest);
  if (!manifest) {
    if (!existing) return { action: 'start', plan };
    if (!options.resume) return { action: 'refuse', reason: 'exists' };
    checkWrittenAfter(target, existing.mtimeMs, plan);
    return { action: 'complete' };
  }
  const { savedPlan: saved, same, differences, ownRange } = compareSaved(manifest.query, plan, baseUrl, options.resume);
  if (!options.resume) return { action: 'refuse', reason: 'unfinished', saved, manifest, differences };
  if (!same && !ownRange) return { action: 'refuse', reason: 'different', saved, manifest, differences };
  // A manifest without its partial file has nothing to continue.
  const partial = await statOf(paths.partial);
  if (!partial) return { action: 'start', plan: ownRange ? saved : plan };
  // Bytes the manifest counts that are gone (a restored backup, a disk that lost unsynced pages) cannot be resumed
  // from: extending the file back would fill them with zeros.
  if (partial.size < manifest.bytes) {
    throw new UnresumableError(
      `${paths.partial} holds ${partial.size} bytes, fewer than the ${manifest.bytes} its manifest counts, so the export cannot be resumed`,
    );
  }
  // What the format needs beside the bytes to go on (a Parquet footer is rebuilt from its row groups' metadata) is
  // checked before the run claims to be resuming.
  await formatOf(manifest.query.format).checkResume?.(paths.partial, manifest.formatState);
  const baseUrlWas = manifest.query.baseUrl !== baseUrl ? manifest.query.baseUrl : undefined;
  return { action: 'resume', plan: ownRange ? saved : plan, manifest, ownRange, baseUrlWas };
}

/**
 * A complete export that keeps no record of its range (a FILE, an object) cannot have been finished before the range
 * it holds ended: one finished earlier holds another range (--last 1h an hour ago), and keeping it would be stale.
 */
export function checkWrittenAfter(target: string, written: number, plan: ExportPlan): void {
  if (written < plan.to) throw new TargetRefusedError(target, { reason: 'other-range', written, to: plan.to });
}

/** What is at `file` (following a symbolic link), or undefined when nothing is (or it cannot be looked at). */
function statOf(file: string): Promise<Stats | undefined> {
  return fs.stat(file).catch(() => undefined);
}
