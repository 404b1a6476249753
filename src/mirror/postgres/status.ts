/**
 * Where a Postgres mirror stands (`swapx sync status`), read on a connection of its own, without the lock (a sync
 * may be running): its state row, its last run, the rows of its table.
 */
import type { MirrorStatus } from '../../sync/store.js';
import { connect, describeError } from './driver.js';
import { qualified, STATE_TABLE } from './schema.js';
import { Session } from './session.js';
import { selectRun, selectState } from './state.js';
import { type PgTarget, qualifiedName } from './target.js';
import { quoteIdent } from './columns.js';

export async function readStatus(target: PgTarget): Promise<MirrorStatus | undefined> {
  const db = await connect(target);
  const session = Session.attach(target, db).begin();
  const name = { schema: target.schema, table: target.table };
  try {
    const [found] = await db<{ exists: boolean }[]>`SELECT to_regclass(${`${quoteIdent(target.schema)}.${quoteIdent(STATE_TABLE)}`}) IS NOT NULL AS exists`;
    if (!found!.exists) return undefined;
    const state = await selectState(db, name);
    if (!state) return undefined;
    const [counted] = await db.unsafe(`SELECT count(*)::bigint AS n FROM ${qualified(name)}`);
    return { state, lastRun: await selectRun(db, name), swaps: Number(counted!.n), holds: `table ${qualifiedName(target)}` };
  } catch (error) {
    throw session.lost ?? describeError(error, target, 'read the state');
  } finally {
    session.settle();
    await session.end();
  }
}
