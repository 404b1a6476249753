/**
 * Which mirror `--out` names, by its scheme, in this one place: `postgres://` (or `postgresql://`) a table,
 * `s3://` a lake (partitions in an object store), anything else a folder; each destination checks the flags that
 * are its own (the partitions' --format, --gzip and --fields; a table's --table) and refuses the other's. A
 * destination's code (a database driver, an S3 client) is loaded only when it is named.
 */
import { UsageError } from '../../api/errors.js';
import type { Context } from '../../cli/context.js';
import { fsReason } from '../../cli/exit-codes.js';
import { isS3Url } from '../../fs/output-target.js';
import { FolderStore } from '../../mirror/folder/store.js';
import type { MirrorQuery, MirrorStore } from '../../sync/store.js';
import { VERSION } from '../../version.js';
import type { SyncFlags, SyncOptions } from './flags.js';
import { noteJson } from './render.js';

export interface OpenedMirror {
  store: MirrorStore<MirrorQuery>;
  /** what a step's rows went into, as the line for people says it */
  rowsGoInto: 'partition' | 'table';
}

/** Whether `--out` names a Postgres database rather than a directory. */
export function isPostgresUrl(out: string): boolean {
  return /^postgres(ql)?:\/\//i.test(out.trim());
}

/** What of the run's options a destination reads: where, and a folder's own settings. */
export type MirrorOptions = Pick<SyncOptions, 'dir' | 'format' | 'gzip' | 'fields' | 'summaryJson'>;

export async function openMirror(ctx: Context, flags: SyncFlags, options: MirrorOptions): Promise<OpenedMirror> {
  if (isPostgresUrl(options.dir)) return { store: await postgresStore(ctx, flags, options), rowsGoInto: 'table' };
  if (isS3Url(options.dir)) return { store: await lakeStore(ctx, flags, options), rowsGoInto: 'partition' };
  return { store: folderStore(ctx, flags, options), rowsGoInto: 'partition' };
}

/** The mirror in an object store: its client is loaded only here, and proved by one request before the run starts. */
async function lakeStore(ctx: Context, flags: SyncFlags, options: MirrorOptions): Promise<MirrorStore<MirrorQuery>> {
  if (flags.table !== undefined) throw new UsageError('--table applies to a postgres:// --out; a lake has no table');
  const { openLake } = await import('../../mirror/lake/open.js');
  const { store, description } = await openLake(options.dir, {
    env: ctx.io.env,
    format: options.format,
    gzip: options.gzip,
    fields: options.fields,
    now: () => ctx.now(),
    fsReason,
    signal: ctx.io.signal,
    onAttempt: ctx.attemptLogger(),
  });
  // Where, which endpoint and region, and where the credentials came from: never the credentials.
  if (ctx.globals.verbose) ctx.io.stderr.write(`s3: ${description}\n`);
  return store;
}

function folderStore(ctx: Context, flags: SyncFlags, options: MirrorOptions): MirrorStore<MirrorQuery> {
  if (flags.table !== undefined) throw new UsageError('--table applies to a postgres:// --out; a folder mirror has no table');
  return new FolderStore({ dir: options.dir, format: options.format, gzip: options.gzip, fields: options.fields, now: () => ctx.now(), fsReason });
}

/** The mirror in a Postgres table: its driver is loaded only here, so other commands start no slower. */
async function postgresStore(ctx: Context, flags: SyncFlags, options: MirrorOptions): Promise<MirrorStore<MirrorQuery>> {
  // A table keeps every field in a typed column: the folder's file settings do not apply.
  for (const [given, flag] of [
    [flags.format, '--format'],
    [flags.gzip, '--gzip'],
    [flags.fields, '--fields'],
  ] as const) {
    if (given !== undefined) throw new UsageError(`${flag} applies to a folder mirror: a Postgres table keeps every field, each in a typed column`);
  }
  const { parseTarget, describeTarget } = await import('../../mirror/postgres/target.js');
  const { unsafeModeWarning } = await import('../../mirror/postgres/pgpass.js');
  const target = parseTarget(options.dir, { table: flags.table, env: ctx.io.env });
  if (target.passwordFileIgnored) {
    // Said as psql says it (libpq's words), not skipped in silence; a sync-warning line with --summary-json.
    const warning = unsafeModeWarning(target.passwordFileIgnored.file);
    ctx.io.stderr.write(`${options.summaryJson ? noteJson('sync-warning', warning, ctx.now()) : warning}\n`);
  }
  if (ctx.globals.verbose) {
    // Where the password came from, never the password.
    const password = target.passwordFrom === undefined ? 'no password' : `password from ${target.passwordFrom}`;
    ctx.io.stderr.write(`postgres: ${describeTarget(target)}, sslmode ${target.sslMode}, ${password}\n`);
  }
  const { PostgresStore } = await import('../../mirror/postgres/store.js');
  return new PostgresStore(target, VERSION);
}
