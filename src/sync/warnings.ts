/**
 * What a run says about what its steps found: a server that answers outside the window, ids twice in one answer,
 * fields the mirror leaves out, values a store kept aside. What would be said at every step of --follow is said
 * once a run.
 */
import type { StepResult } from './step.js';
import type { MirrorQuery } from './store.js';

type Once = 'conflicts' | 'balanceChanges' | 'clock' | 'leftOut';

/** A folder's format ('csv ') for messages, or nothing for a store of no format (a table). */
function formatOf(query: MirrorQuery): string {
  const format = (query as { format?: unknown }).format;
  return typeof format === 'string' ? `${format} ` : '';
}

export class StepWarnings {
  private readonly said = new Set<Once>();

  constructor(
    private readonly note: (message: string) => void,
    /** the store, as messages name it */
    private readonly where: string,
    private readonly query: MirrorQuery,
    /** the clock was said about already, at the start */
    clockSaid: boolean,
  ) {
    if (clockSaid) this.said.add('clock');
  }

  /** Says `message` unless this run said one of its kind already. */
  once(kind: Once, message: string): void {
    if (this.said.has(kind)) return;
    this.said.add(kind);
    this.note(message);
  }

  step(result: StepResult): void {
    if (result.outsideWindow > 0) {
      this.note(
        `the API returned ${result.outsideWindow} swap(s) outside the window asked for; they were kept (each swap is held once, by id), but the server may be faulty`,
      );
    }
    if (result.conflicts > 0) {
      this.once(
        'conflicts',
        `the API returned ${result.conflicts} swap id(s) twice in one response with different content; the mirror holds each once, its version with the later updatedAt`,
      );
    }
    // JSON Lines of every field keeps them as sent; columns of a fixed list (CSV, Parquet by default) do not.
    if (result.withBalanceChanges > 0 && !this.query.fields.includes('balanceChanges')) {
      this.once(
        'balanceChanges',
        `the API sent balanceChanges with ${result.withBalanceChanges} swap(s), which this ${formatOf(this.query)}mirror's fields leave out: sync into a new jsonl mirror to keep them, or look one swap up with 'swapx swap <id>'`,
      );
    }
    if (result.leftOut.length > 0) {
      this.once(
        'leftOut',
        `the API sent fields the spec does not name (${result.leftOut.join(', ')}), which this ${formatOf(this.query)}mirror's columns leave out: sync into a new jsonl mirror of every field to keep them`,
      );
    }
    if (result.unfitValues > 0) {
      const named = result.unfit.map((value) => `swap ${value.id}: ${value.field} ${value.reason}`).join('; ');
      const more = result.unfitValues - result.unfit.length;
      this.note(
        `${this.where} could not hold ${result.unfitValues} value(s) as they are; each row was written with what fits and the value kept as sent (${named}${more > 0 ? `; and ${more} more` : ''})`,
      );
    }
  }
}
