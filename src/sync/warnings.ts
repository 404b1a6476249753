/**
 * What a run says about what its steps found: a server that answers outside the window, ids twice in one answer,
 * fields the mirror leaves out, values a store kept aside. As data (SyncWarning), worded by the shell; what would be
 * said at every step of --follow is said once a run.
 */
import type { StepResult } from './step.js';
import type { MirrorQuery, UnfitValue } from './store.js';

export type SyncWarning =
  /** swaps the API returned outside the window asked for (kept: each is held once, by id); said at every step */
  | { kind: 'outside-window'; count: number }
  /** ids the API returned twice in one response with different content: the later updatedAt is held */
  | { kind: 'conflicts'; count: number }
  /** swaps sent with balanceChanges, which the mirror's fields leave out; `format`: the folder's, none for a table */
  | { kind: 'balance-changes'; count: number; format: string | undefined }
  /** fields the spec does not name, which the mirror's columns leave out */
  | { kind: 'left-out'; fields: string[]; format: string | undefined }
  /** values `store` could not hold as they are: written with what fits, kept as sent; `count` of which `values` name some */
  | { kind: 'unfit'; store: string; count: number; values: UnfitValue[] };

type Once = 'conflicts' | 'balance-changes' | 'left-out';

/** A folder's format, or none for a store of no format (a table). */
function formatOf(query: MirrorQuery): string | undefined {
  const format = (query as { format?: unknown }).format;
  return typeof format === 'string' ? format : undefined;
}

export class StepWarnings {
  private readonly said = new Set<Once>();

  constructor(
    private readonly warn: (warning: SyncWarning) => void,
    /** the store, as warnings name it */
    private readonly where: string,
    private readonly query: MirrorQuery,
  ) {}

  private once(warning: Extract<SyncWarning, { kind: Once }>): void {
    if (this.said.has(warning.kind)) return;
    this.said.add(warning.kind);
    this.warn(warning);
  }

  step(result: StepResult): void {
    if (result.outsideWindow > 0) this.warn({ kind: 'outside-window', count: result.outsideWindow });
    if (result.conflicts > 0) this.once({ kind: 'conflicts', count: result.conflicts });
    // JSON Lines of every field keeps them as sent; columns of a fixed list (CSV, Parquet by default) do not.
    if (result.withBalanceChanges > 0 && !this.query.fields.includes('balanceChanges')) {
      this.once({ kind: 'balance-changes', count: result.withBalanceChanges, format: formatOf(this.query) });
    }
    if (result.leftOut.length > 0) this.once({ kind: 'left-out', fields: result.leftOut, format: formatOf(this.query) });
    if (result.unfitValues > 0) this.warn({ kind: 'unfit', store: this.where, count: result.unfitValues, values: result.unfit });
  }
}
