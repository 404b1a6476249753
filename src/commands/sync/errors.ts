/**
 * What the mirror refuses, in the words of `swapx sync`'s flags: the engine and the stores throw data
 * (sync/errors.ts), and these are the lines users see. The class stays UsageError (exit 2, and the `error` of a
 * --summary-json failure line). Also what a step warns of (sync/warnings.ts), as its warning line says it.
 */
import { UsageError } from '../../api/errors.js';
import { AddressError, type AddressPart, type MirrorRefusal, MirrorRefusedError } from '../../sync/errors.js';
import type { SyncWarning } from '../../sync/warnings.js';
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

/** What a step found (sync/warnings.ts), as a warning line says it. */
export function warningWords(warning: SyncWarning): string {
  const kept = (format: string | undefined) => `this ${format === undefined ? '' : `${format} `}mirror's`;
  switch (warning.kind) {
    case 'outside-window':
      return `the API returned ${warning.count} swap(s) outside the window asked for; they were kept (each swap is held once, by id), but the server may be faulty`;
    case 'conflicts':
      return `the API returned ${warning.count} swap id(s) twice in one response with different content; the mirror holds each once, its version with the later updatedAt`;
    case 'balance-changes':
      return `the API sent balanceChanges with ${warning.count} swap(s), which ${kept(warning.format)} fields leave out: sync into a new jsonl mirror to keep them, or look one swap up with 'swapx swap <id>'`;
    case 'left-out':
      return `the API sent fields the spec does not name (${warning.fields.join(', ')}), which ${kept(warning.format)} columns leave out: sync into a new jsonl mirror of every field to keep them`;
    case 'unfit': {
      const named = warning.values.map((value) => `swap ${value.id}: ${value.field} ${value.reason}`).join('; ');
      const more = warning.count - warning.values.length;
      return `${warning.store} could not hold ${warning.count} value(s) as they are; each row was written with what fits and the value kept as sent (${named}${more > 0 ? `; and ${more} more` : ''})`;
    }
  }
}

/** A mirror's refusal or a destination's address problem in the user's terms; any other error as it is. */
export function inUsersTerms(error: unknown): unknown {
  if (error instanceof MirrorRefusedError) return new UsageError(refusalWords(error.mirror, error.refusal), { cause: error });
  if (error instanceof AddressError) return new UsageError(`${partWords(error.part)}${error.rest}`, { cause: error });
  return error;
}
