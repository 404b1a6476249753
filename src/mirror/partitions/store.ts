/**
 * A partitioned mirror, over a storage backend (storage.ts: a local folder, or an object store's prefix): daily
 * partitions (partitions.ts), one file each, in a format of the user's choice (its codec: src/formats), and the
 * state beside them (state-file.ts), under the backend's one-writer lock. A commit rewrites each touched partition whole, THEN
 * writes the state: a crash between leaves the state behind the data, and the next run merges the same versions
 * again, a no-op. Which version is newer is decided by what the partitions hold (pending.ts); which partition
 * holds a swap, by their indexes (id-index.ts), so that a swap whose day changed is moved (moves.ts), never held
 * twice.
 */
import { MirrorRefusedError } from '../../sync/errors.js';
import { WrappedError } from '../../api/errors.js';
import { SyncLockedError } from '../../fs/lock.js';
import { SWAP_FIELDS } from '../../api/types.js';
import { DEFAULT_FORMAT, type FormatName, formatOf } from '../../formats/registry.js';
import type { Committed, MirrorRow, MirrorStatus, MirrorStore, RunRecord } from '../../sync/store.js';
import { formatUtc } from '../../util/time.js';
import { IdIndex } from './id-index.js';
import { finishMoves, readMoves, repairRepeated } from './moves.js';
import { utcDate } from './partitions.js';
import { PendingPartitions } from './pending.js';
import { readRunRecord, removeRunRecord, writeRunRecord } from './run-record.js';
import { queryDifferences, readState, removeState, stateStamp, type SyncQuery, type SyncState, writeState } from './state-file.js';
import { type PartitionBackend, StaleWriteError, type WriterLock } from './storage.js';
import type { PartitionCodec } from '../../formats/stored-row.js';

export interface PartitionedOptions {
  backend: PartitionBackend;
  /** as given by flags; undefined: the saved state's, else `defaultFormat` */
  format?: FormatName;
  /** a new mirror's format when no flag names one: JSON Lines in a folder (the registry's default), Parquet in a lake */
  defaultFormat?: FormatName;
  gzip?: boolean;
  fields?: string[];
  /** the wall clock, for the state's updatedAt */
  now: () => number;
  /** "read-only file system" for a file-system error, else undefined: the shell's words for them */
  fsReason: (error: unknown) => string | undefined;
}

const SPEC_FIELDS = new Set<string>(SWAP_FIELDS);

export class PartitionedStore implements MirrorStore<SyncQuery> {
  readonly name: string;
  private lock: WriterLock | undefined;
  private codec: PartitionCodec | undefined;
  /** whether the rows keep every field as sent (JSON Lines of every field), unknown ones included */
  private keepsEvery = false;
  /** fields the spec does not name that the API sent and this mirror's rows leave out, since the last commit */
  private leftOut = new Set<string>();
  private ids: IdIndex | undefined;
  private pending: PendingPartitions | undefined;
  /** the state's stamp as this run last read or wrote it (null: there was none), for a conditional write */
  private stamp: string | null = null;

  constructor(private readonly options: PartitionedOptions) {
    this.name = options.backend.storage.name;
  }

  private get storage() {
    return this.options.backend.storage;
  }

  resolveQuery(baseUrl: string, saved: SyncQuery | undefined): SyncQuery {
    const { format: given, gzip, fields } = this.options;
    const format = given ?? saved?.format ?? this.options.defaultFormat ?? DEFAULT_FORMAT.name;
    const query: SyncQuery = {
      baseUrl,
      filter: 'Completed',
      format,
      // A new mirror's fields are its format's (registry.ts); a mirror keeps its fields in its state, so one made
      // before a default changed keeps its columns.
      fields: fields ?? saved?.fields ?? [...formatOf(format).mirror!.defaultFields],
      gzip: gzip ?? saved?.gzip ?? false,
    };
    if (saved) {
      const differences = queryDifferences({ ...saved, baseUrl }, query);
      if (differences.length > 0) throw new MirrorRefusedError(this.name, { reason: 'query', differences });
    }
    return query;
  }

  readState(): Promise<SyncState | undefined> {
    return readState(this.storage);
  }

  async open(note: (message: string) => void): Promise<SyncState | undefined> {
    const { backend } = this.options;
    try {
      await backend.prepare();
      this.lock = await backend.lock((reason) => note(`took over ${reason} on ${this.name}`));
    } catch (error) {
      // A file-system refusal names the place the user gave, not the temporary file of the lock.
      const reason = this.options.fsReason(error);
      if (reason) throw new WrappedError(`cannot take the lock in ${this.name}: ${reason}`, { cause: error });
      throw error;
    }
    const dir = this.name;
    const saved = await readState(this.storage);
    this.stamp = (await stateStamp(this.storage)) ?? null;
    // The saved query's codec; a new mirror's is that of the flags (the base URL plays no part in it).
    await this.useQuery(saved?.query ?? this.resolveQuery('', undefined));
    const folded = await backend.recover(this.codec!);
    // Moves a killed run left half done, then the index of every partition (made once for a mirror of an older
    // swapx, which may hold a swap in two partitions: repaired).
    const moves = await readMoves(this.storage);
    if (moves) await finishMoves(this.storage, this.codec!, this.ids!, moves);
    if ((await this.ids!.load()).length > 0) {
      const repaired = await repairRepeated(this.storage, this.codec!, this.ids!);
      if (repaired > 0)
        note(`${dir} held ${repaired} swap(s) in more than one partition (their completedAt changed day): each is now held once, its latest version`);
    }
    if (!saved) return undefined;
    if (saved.upgradedFrom === 1) {
      note(
        `${dir} was written by an older swapx: its parts are folded into one file per partition, and updates since ${formatUtc(saved.since)} are fetched once (Filter=Updated) to bring every swap to its latest version`,
      );
      delete saved.upgradedFrom;
      await this.saveState(saved);
    } else if (folded.length > 0) {
      note(`folded ${folded.length} partition(s) an interrupted run left in two files (${folded.join(', ')})`);
      await this.saveState(saved);
    }
    return saved;
  }

  private async useQuery(query: SyncQuery): Promise<void> {
    if (this.codec) return;
    const format = formatOf(query.format);
    this.codec = await format.mirror!.codec({ gzip: query.gzip, fields: query.fields, allFields: SWAP_FIELDS });
    this.keepsEvery = !format.fixedColumns && SWAP_FIELDS.every((field) => query.fields.includes(field));
    this.ids = new IdIndex(this.storage, this.codec);
    this.pending = new PendingPartitions(this.storage, this.codec, this.ids);
  }

  async checkLock(): Promise<void> {
    await this.lock?.check();
  }

  get buffered(): number {
    return this.pending?.size ?? 0;
  }

  async add(row: MirrorRow): Promise<void> {
    if (!this.keepsEvery) for (const field in row.swap) if (!SPEC_FIELDS.has(field)) this.leftOut.add(field);
    const stored = this.codec!.row(row.swap);
    // The completedAt the step placed the row by, parsed once there.
    stored.completedMs = row.completedMs;
    await this.pending!.add(utcDate(row.completedMs), stored);
  }

  /**
   * Writes the state over the version this run last read or wrote (`stamp`): where writers are kept apart by a lease
   * that can be lost (an object store), a writer that lost it cannot commit over the one that took it over.
   */
  private async saveState(state: SyncState): Promise<void> {
    try {
      this.stamp = (await writeState(this.storage, state, this.options.now(), this.stamp)) ?? null;
    } catch (error) {
      if (!(error instanceof StaleWriteError)) throw error;
      throw new SyncLockedError(
        `another swapx sync wrote the state of ${this.name} meanwhile (this run's lock was lost); this run stopped before writing more`,
      );
    }
  }

  async commit(next: SyncState, newFrom: number): Promise<Committed> {
    await this.checkLock();
    await this.useQuery(next.query);
    const flushed = await this.pending!.flush(newFrom);
    await this.saveState(next);
    const leftOut = [...this.leftOut];
    this.leftOut.clear();
    return {
      newSwaps: flushed.newSwaps,
      lateSwaps: flushed.lateSwaps,
      updatedSwaps: flushed.updatedSwaps,
      touched: flushed.files,
      ...(leftOut.length > 0 ? { leftOut } : {}),
    };
  }

  async recordRun(run: RunRecord): Promise<void> {
    await this.lock?.check();
    await writeRunRecord(this.storage, run);
  }

  async readStatus(): Promise<MirrorStatus<SyncQuery> | undefined> {
    const state = await readState(this.storage);
    if (!state) return undefined;
    const { format: name, gzip, fields } = state.query;
    const codec = await formatOf(name).mirror!.codec({ gzip, fields, allFields: SWAP_FIELDS });
    const { partitions, swaps } = await new IdIndex(this.storage, codec).count();
    const format = `${state.query.format}${state.query.gzip ? '.gz' : ''}`;
    return { state, lastRun: await readRunRecord(this.storage), swaps, holds: `${partitions} partition${partitions === 1 ? '' : 's'} of ${format}` };
  }

  closeNow(): void {
    this.lock?.releaseSync?.();
    this.lock = undefined;
  }

  async close(discard: boolean): Promise<void> {
    try {
      await this.release(discard);
    } finally {
      await this.options.backend.close?.();
    }
  }

  private async release(discard: boolean): Promise<void> {
    if (!this.lock) return;
    try {
      if (discard) {
        // Only while the lock is still ours: a mirror taken over is another sync's.
        await this.lock.check();
        await removeState(this.storage);
        await removeRunRecord(this.storage);
      }
    } catch {
      // Nothing to undo for a lock lost, nor a state never written.
    } finally {
      await this.lock.release();
      this.lock = undefined;
    }
    // A first run that wrote nothing (its first window failed) leaves no empty place behind.
    if (discard) await this.options.backend.discard();
  }
}
