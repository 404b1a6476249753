/**
 * The mirror in a Postgres table, as the sync engine's store (sync/store.ts):
 * the engine plans the passes and the cursors; this store holds the rows
 * (mirror.ts: one transaction per commit, rows and cursors together) and the
 * one-writer lock (an advisory lock of the session: none outlives its process,
 * so there is no closeNow). Every column of the API is kept: the folder's
 * format, gzip and --fields do not apply.
 */
import { SWAP_FIELDS } from '../../api/types.js';
import type { Committed, MirrorQuery, MirrorRow, MirrorState, MirrorStatus, MirrorStore, RunRecord } from '../../sync/store.js';
import { PostgresMirror } from './mirror.js';
import { readStatus } from './status.js';
import { describeTarget, type PgTarget, qualifiedName } from './target.js';

export class PostgresStore implements MirrorStore<MirrorQuery> {
  readonly name: string;
  private mirror: PostgresMirror | undefined;
  /** what the run is told (a clean-up skipped) */
  private note: (message: string) => void = () => {};

  constructor(
    private readonly target: PgTarget,
    /** the swapx version, kept with the cursors */
    private readonly version: string,
  ) {
    this.name = describeTarget(target);
  }

  resolveQuery(baseUrl: string, _saved: MirrorQuery | undefined): MirrorQuery {
    // The table's columns are checked when it is opened; a table of an older swapx gains the fields it lacks.
    return { baseUrl, filter: 'Completed', fields: [...SWAP_FIELDS] };
  }

  readState(): Promise<MirrorState | undefined> {
    return PostgresMirror.peekState(this.target);
  }

  readStatus(): Promise<MirrorStatus | undefined> {
    return readStatus(this.target);
  }

  async recordRun(run: RunRecord): Promise<void> {
    await this.mirror?.recordRun(run);
  }

  async open(note: (message: string) => void): Promise<MirrorState | undefined> {
    this.note = note;
    const mirror = await PostgresMirror.open(this.target, { version: this.version });
    this.mirror = mirror;
    const { added } = mirror.ensured;
    if (added.length > 0) note(`${qualifiedName(this.target)} was made by an older swapx: added the column(s) ${added.join(', ')}`);
    // The engine closes only a store it opened: one that fails here ends its session itself.
    return mirror.readState().catch(async (error: unknown) => {
      this.mirror = undefined;
      await mirror.close();
      throw error;
    });
  }

  checkLock(): Promise<void> {
    return this.mirror!.checkLock();
  }

  get buffered(): number {
    return this.mirror?.size ?? 0;
  }

  async add(row: MirrorRow): Promise<void> {
    this.mirror!.add(row.swap as unknown as Record<string, unknown>, row.completedMs);
  }

  async commit(next: MirrorState, newFrom: number): Promise<Committed> {
    const mirror = this.mirror!;
    const counts = await mirror.bounded(() => mirror.commit(next, newFrom));
    const changed = counts.newSwaps + counts.lateSwaps + counts.updatedSwaps > 0;
    return { ...counts, touched: changed ? [qualifiedName(this.target)] : [] };
  }

  async close(discard: boolean): Promise<void> {
    const mirror = this.mirror;
    this.mirror = undefined;
    if (!mirror) return;
    if (discard && !(await mirror.discard())) {
      this.note(
        `the connection to ${this.name} was lost: this first run's start (its state row, and the table if it made one) was left in place, and the next run continues from it`,
      );
    }
    await mirror.close();
  }
}
