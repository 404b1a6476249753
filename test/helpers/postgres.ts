/**
 * A database of its own for the tests of a file (or describe block), on the run's PostgreSQL server
 * (scripts/support/postgres-cluster.ts): created before them, dropped after. `sql` reads back what swapx wrote,
 * as the test role; `admin` is the superuser, over the Unix socket.
 */
import { afterAll, beforeAll, inject } from 'vitest';
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { connect, type Db } from '../../src/mirror/postgres/driver.js';
import type { PgTarget } from '../../src/mirror/postgres/target.js';
import { announcedServer } from './background-server.js';
import { adminConnection, type PostgresServer } from '../../scripts/support/postgres-cluster.js';

export interface TestDatabase {
  readonly server: PostgresServer;
  readonly database: string;
  /** postgres://swapx_test@127.0.0.1:PORT/DB (no password: that goes in PGPASSWORD) */
  readonly url: string;
  /** PGPASSWORD for the test role */
  readonly env: Record<string, string>;
  /** the test role's connection to this database */
  readonly sql: postgres.Sql;
  /** the superuser's connection to this database */
  readonly admin: postgres.Sql;
}

/**
 * The run's server, once it has started: the globalSetup (test/helpers/postgres-setup.ts) starts it in the
 * background, so that the workers start, and the files that need no database run, meanwhile. Throws why it did
 * not start.
 */
export function runServer(): Promise<PostgresServer> {
  return announcedServer(inject('postgresStatus'), 'PostgreSQL test server', 25_000);
}

const quiet = { onnotice: () => {}, max: 4, fetch_types: true, connection: { application_name: 'swapx tests' } };

export function userConnection(server: PostgresServer, database: string): postgres.Sql {
  return postgres({ ...quiet, host: server.host, port: server.port, user: server.user, pass: server.password, database, ssl: false });
}

/**
 * Where swapx writes in `db` as the test role, as parseTarget reads `db.url` with `db.env` (the table xflow_swaps in
 * public, sslmode prefer), built without it: a module's tests that use it are not among parseTarget's tests.
 */
export function pgTarget(db: TestDatabase, extra: Partial<PgTarget> = {}): PgTarget {
  return {
    host: db.server.host,
    port: db.server.port,
    database: db.database,
    user: db.server.user,
    schema: 'public',
    table: 'xflow_swaps',
    sslMode: 'prefer',
    sslRootCert: undefined,
    connectTimeout: 10,
    password: db.server.password,
    passwordFrom: 'PGPASSWORD',
    ...extra,
  };
}

/** A fresh database for the enclosing block; its handle's fields are valid inside tests. */
export function usePostgres(): TestDatabase {
  let handle: TestDatabase | undefined;
  let root: postgres.Sql | undefined;
  const get = <K extends keyof TestDatabase>(key: K): TestDatabase[K] => {
    if (!handle) throw new Error('the test database is not created yet: use it inside a test');
    return handle[key];
  };
  beforeAll(async () => {
    const server = await runServer();
    const database = `swapx_${randomBytes(6).toString('hex')}`;
    root = adminConnection(server);
    await root.unsafe(`CREATE DATABASE ${database} OWNER ${server.user}`);
    handle = {
      server,
      database,
      url: `postgres://${server.user}@${server.host}:${server.port}/${database}`,
      env: { PGPASSWORD: server.password },
      sql: userConnection(server, database),
      admin: adminConnection(server, database),
    };
  });
  afterAll(async () => {
    if (handle) {
      await handle.sql.end({ timeout: 1 });
      await handle.admin.end({ timeout: 1 });
      await root?.unsafe(`DROP DATABASE IF EXISTS ${handle.database} WITH (FORCE)`);
    }
    await root?.end({ timeout: 1 });
  });
  return {
    get server() {
      return get('server');
    },
    get database() {
      return get('database');
    },
    get url() {
      return get('url');
    },
    get env() {
      return get('env');
    },
    get sql() {
      return get('sql');
    },
    get admin() {
      return get('admin');
    },
  };
}

/**
 * swapx's own driver on `db` for the enclosing block, as the mirror opens it (connect(pgTarget(db))): given to `opened`
 * before the block's tests (which may prepare it), ended after them.
 */
export function useDriver(db: TestDatabase, opened: (sql: Db) => void | Promise<void>): void {
  let sql: Db | undefined;
  beforeAll(async () => {
    sql = await connect(pgTarget(db));
    await opened(sql);
  });
  afterAll(async () => {
    await sql?.end({ timeout: 1 });
  });
}
