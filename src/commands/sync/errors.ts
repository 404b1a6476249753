/**
 * What the mirror refuses, in the words of `swapx sync`'s flags: the engine and the stores throw data
 * (sync/errors.ts), and these are the lines users see. The class stays UsageError (exit 2, and the `error` of a
 * --summary-json failure line).
 */
import { UsageError } from '../../api/errors.js';
import { AddressError, type AddressPart, type MirrorRefusal, MirrorRefusedError } from '../../sync/errors.js';
import { type Difference, describeDifferences } from '../../util/fingerprint.js';
import { formatUtc } from '../../util/time.js';

/** A saved query's keys, as a difference names them. */
const LABELS: Readonly<Record<string, string>> = { baseUrl: 'base URL', fields: '--fields' };

/** "format was "jsonl", now "csv"; gzip was false, now true": what a mirror's query and this run's differ in. */
export function describeMirrorChange(differences: readonly Difference[]): string {
  return describeDifferences(differences, LABELS);
}

function refusalWords(mirror: string, refusal: MirrorRefusal): string {
  switch (refusal.reason) {
    case 'base-url':
      return `${mirror} holds a sync of another query (base URL was ${JSON.stringify(refusal.was)}, now ${JSON.stringify(refusal.now)}); if the API moved there, run again with --move-base-url to continue this mirror, else sync into a new --out dir`;
    case 'query':
      return `${mirror} holds a sync of another query (${describeMirrorChange(refusal.differences)}); sync this one into a new --out dir`;
    case 'fields':
      return `${mirror} syncs --fields without ${refusal.missing.join(' and ')}, which a mirror that keeps the latest version of each swap needs; sync into a new --out dir`;
    case 'no-start':
      return `${mirror} has no sync state yet: the first run needs --since <time>, where the sync starts (e.g. --since 2026-11-01)`;
    case 'until':
      return `--until ${formatUtc(refusal.until)} is before the cursor of ${mirror} (${formatUtc(refusal.cursor)}): those swaps are synced already`;
    case 'state-unreadable':
      return `cannot read the sync state ${refusal.file} (${refusal.code}); fix its permissions, or sync into a new --out dir`;
    case 'state-corrupt':
      return `the sync state ${refusal.file} is corrupt (${refusal.why}); it was left untouched: restore it from a backup, or sync into a new --out dir`;
    case 'moves-edited':
      return `${refusal.file} is not what swapx wrote (edited by hand?); it was left as it is: remove it, and sync into a new --out dir if swaps are then held twice`;
    case 'table-unfit':
      return `${refusal.table} exists but is not ${refusal.what} swapx can write (${refusal.why}); it was left as it is: name another table with --table`;
  }
}

/** The part of a destination's name as the user gave it. */
function partWords(part: AddressPart): string {
  if (part.kind === 'url') return '--out';
  if (part.kind === 'url-param') return `--out ?${part.param}=`;
  return part.kind === 'table' ? '--table' : part.name;
}

/** The note of a start given to a mirror that has one. */
export function sinceIgnoredWords(mirror: string, since: number, cursor: number): string {
  return `--since ignored: ${mirror} syncs from ${formatUtc(since)} and continues from its cursor ${formatUtc(cursor)} (a new start needs a new --out dir)`;
}

/** A mirror's refusal or a destination's address problem in the user's terms; any other error as it is. */
export function inUsersTerms(error: unknown): unknown {
  if (error instanceof MirrorRefusedError) return new UsageError(refusalWords(error.mirror, error.refusal), { cause: error });
  if (error instanceof AddressError) return new UsageError(`${partWords(error.part)}${error.rest}`, { cause: error });
  return error;
}
