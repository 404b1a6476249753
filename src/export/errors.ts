/**
 * What runExport throws beside the API's own errors: each carries what the shell needs to word it in its flags (the
 * saved plan whose resume command it prints, the windows saved, what differs), and maps to its exit code through its class or its cause.
 */
import { UsageError, WrappedError } from '../api/errors.js';
import { type Difference, describeDifferences } from '../util/fingerprint.js';
import { formatUtc } from '../util/time.js';
import type { ExportPlan } from './plan.js';

/** The file holds something this run must not overwrite or continue: nothing was changed (exit 2). */
export type TargetRefusal =
  /** the file is complete, and the run was told neither to overwrite it nor to resume */
  | { reason: 'exists' }
  /** an unfinished export of the file is there; `saved` is its plan, whose resume continues it; `differences`: what this run's query changes */
  | { reason: 'unfinished' | 'different'; saved: ExportPlan; windowsDone: number; windowsTotal: number; differences: Difference[] }
  /** --resume of a complete file (or object) written before this range ends: it holds another range */
  | { reason: 'other-range'; written: number; to: number }
  /** -o s3://…: an export finished by an earlier run waits to be uploaded there, of another query; `file`: where */
  | { reason: 'finished'; saved: ExportPlan; file: string; differences: Difference[] };

export class TargetRefusedError extends UsageError {
  constructor(
    readonly target: string,
    readonly refusal: TargetRefusal,
  ) {
    super(refusalText(target, refusal));
  }
}

/** The words for a caller of the library; the CLI's are the shell's (commands/swaps/run.ts). */
function refusalText(target: string, refusal: TargetRefusal): string {
  switch (refusal.reason) {
    case 'exists':
      return `${target} exists`;
    case 'unfinished':
      return `an unfinished export to ${target} exists (${refusal.windowsDone}/${refusal.windowsTotal} windows done)`;
    case 'different':
      return `the unfinished export to ${target} is of a different query (${describeDifferences(refusal.differences)})`;
    case 'other-range':
      return `${target} was written at ${formatUtc(refusal.written)}, before this range ends (${formatUtc(refusal.to)}), so it holds another range`;
    case 'finished':
      return `an export to ${target} of a different query (${describeDifferences(refusal.differences)}) is finished in ${refusal.file} and waits to be uploaded`;
  }
}

/**
 * -o s3://…: the export is complete in `file` (its stage) but was not uploaded: `cause` says why (its class, the
 * exit code). The file stays, so that the run again (`plan`'s resume) uploads it without fetching anything.
 */
export class UploadFailedError extends WrappedError {
  constructor(
    readonly object: string,
    readonly file: string,
    readonly plan: ExportPlan,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/** A file error while taking FILE's lock or opening FILE's partial export, before anything was written. */
export class TargetFileError extends WrappedError {
  constructor(
    readonly target: string,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/**
 * An export that stopped (failed, or was interrupted) after it began: `cause` says why. `saved`: the windows kept in
 * FILE's partial file for a resume of `plan`; undefined when nothing was kept (stdout, or no window saved).
 */
export class ExportStoppedError extends WrappedError {
  constructor(
    readonly plan: ExportPlan,
    readonly saved: { windowsDone: number; windowsTotal: number; partial: string } | undefined,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}
