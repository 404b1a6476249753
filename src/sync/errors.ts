/**
 * What a mirror refuses, as data: the engine and the stores throw these, and the shell says them in its flags
 * (commands/sync/errors.ts), so no flag name is written below it. Each is a UsageError (exit 2): nothing was changed.
 */
import { UsageError } from '../api/errors.js';
import { type Difference, describeDifferences } from '../util/fingerprint.js';
import { formatUtc } from '../util/time.js';

export type MirrorRefusal =
  /** the mirror was made from another API; a run told the API moved continues it from this one */
  | { reason: 'base-url'; was: string; now: string }
  /** the mirror's own settings (a folder's format, gzip, fields) differ from this run's */
  | { reason: 'query'; differences: Difference[] }
  /** the saved fields lack some of MIRROR_KEY_FIELDS */
  | { reason: 'fields'; missing: string[] }
  /** a first run without a start */
  | { reason: 'no-start' }
  /** the end asked for lies before the cursor */
  | { reason: 'until'; until: number; cursor: number }
  /** the state file cannot be read (`code`: the file system's) */
  | { reason: 'state-unreadable'; file: string; code: string }
  | { reason: 'state-corrupt'; file: string; why: string }
  /** the list of moves a killed run left is not what swapx wrote */
  | { reason: 'moves-edited'; file: string }
  /** a table of the name the mirror was given exists, and is not one swapx can write as `what` (the first `why`) */
  | { reason: 'table-unfit'; table: string; what: string; why: string };

/** The words for a caller of the library; the CLI's are the shell's. */
function text(mirror: string, refusal: MirrorRefusal): string {
  switch (refusal.reason) {
    case 'base-url':
      return `${mirror} holds a sync of another query (base URL was ${JSON.stringify(refusal.was)}, now ${JSON.stringify(refusal.now)})`;
    case 'query':
      return `${mirror} holds a sync of another query (${describeDifferences(refusal.differences)})`;
    case 'fields':
      return `${mirror} keeps fields without ${refusal.missing.join(' and ')}, which a mirror that keeps the latest version of each swap needs`;
    case 'no-start':
      return `${mirror} has no sync state yet: the first run needs a start`;
    case 'until':
      return `the end ${formatUtc(refusal.until)} is before the cursor of ${mirror} (${formatUtc(refusal.cursor)}): those swaps are synced already`;
    case 'state-unreadable':
      return `cannot read the sync state ${refusal.file} (${refusal.code})`;
    case 'state-corrupt':
      return `the sync state ${refusal.file} is corrupt (${refusal.why}); it was left untouched`;
    case 'moves-edited':
      return `${refusal.file} is not what swapx wrote (edited by hand?); it was left as it is`;
    case 'table-unfit':
      return `${refusal.table} exists but is not ${refusal.what} swapx can write (${refusal.why}); it was left as it is`;
  }
}

export class MirrorRefusedError extends UsageError {
  constructor(
    /** the mirror as its store names it */
    readonly mirror: string,
    readonly refusal: MirrorRefusal,
  ) {
    super(text(mirror, refusal));
  }
}

/**
 * Which part of what names a destination a problem is in: the URL, one of its parameters, the table given beside
 * it, or a variable of the environment. The shell names the first three as the user gave them (`--out`, `--table`).
 */
export type AddressPart = { kind: 'url' } | { kind: 'url-param'; param: string } | { kind: 'table' } | { kind: 'env'; name: string };

function partText(part: AddressPart): string {
  if (part.kind === 'url') return 'the URL';
  if (part.kind === 'url-param') return `the URL's ?${part.param}=`;
  return part.kind === 'table' ? 'the table' : part.name;
}

/** What names a destination cannot be used; `rest` is what follows the part's name, its separator first (": …", " '…' …"). */
export class AddressError extends UsageError {
  constructor(
    readonly part: AddressPart,
    readonly rest: string,
    options?: ErrorOptions,
  ) {
    super(`${partText(part)}${rest}`, options);
  }
}
