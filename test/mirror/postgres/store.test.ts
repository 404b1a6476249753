/** The Postgres table as a MirrorStore: the contract every store meets (test/helpers/store-contract.ts), on the real server. */
import { PostgresStore } from '../../../src/mirror/postgres/store.js';
import { parseTarget } from '../../../src/mirror/postgres/target.js';
import { usePostgres } from '../../helpers/postgres.js';
import { describeMirrorStore } from '../../helpers/store-contract.js';

const db = usePostgres();
let tables = 0;

describeMirrorStore('a Postgres table', async () => {
  const target = parseTarget(db.url, { env: db.env, table: `contract_${++tables}` });
  const make = () => new PostgresStore(target, '0.0.0-test');
  return {
    store: make(),
    another: make,
    held: async () => {
      const exists = await db.sql`SELECT to_regclass(${target.table}) IS NOT NULL AS ok`;
      if (!exists[0]!.ok) return [];
      return db.sql.unsafe(`SELECT id, updated_at AS "updatedAt", deposit_usd_amount AS "depositUsdAmount" FROM ${target.table}`);
    },
  };
});
