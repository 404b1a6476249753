/**
 * Where a Postgres mirror lives and how swapx logs in: the URL (a password in it refused, never echoed), the
 * password from PGPASSWORD or the password file, sslmode, the table named by the URL or --table; and each way
 * opening can fail — a refused login, a missing database or schema, an unreachable server, a table of another
 * shape — as one line of the documented class, against the real server. No message holds the password.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { AuthError, UsageError, WrappedError } from '../../../src/api/errors.js';
import { exitCodeFor } from '../../../src/cli/exit-codes.js';
import { PostgresMirror } from '../../../src/mirror/postgres/mirror.js';

// The version a run writes with its cursors.
const OPEN = { version: '0.0.0-test' };
import { parseTarget, type PgTarget } from '../../../src/mirror/postgres/target.js';
import { inUsersTerms } from '../../../src/commands/sync/errors.js';
import { tempDir } from '../../helpers/cli.js';
import { usePostgres } from '../../helpers/postgres.js';

const db = usePostgres();

/** What opening the mirror throws (or undefined), its exit code, and that the password is not in its message. */
async function openError(target: PgTarget): Promise<{ error: Error; code: number }> {
  let mirror: PostgresMirror | undefined;
  try {
    mirror = await PostgresMirror.open(target, OPEN);
  } catch (error) {
    expect((error as Error).message).not.toContain(db.server.password);
    // As the user reads it: the shell words a refusal the mirror throws as data.
    return { error: inUsersTerms(error) as Error, code: exitCodeFor(error) };
  } finally {
    await mirror?.close();
  }
  throw new Error('opened');
}

const refused = (fn: () => unknown) => {
  try {
    fn();
  } catch (thrown) {
    // As the user reads it: the shell names the part of the address as given (--out, --table).
    const error = inUsersTerms(thrown) as Error;
    return { type: error.constructor.name, message: error.message };
  }
  throw new Error('accepted');
};

describe('the URL', () => {
  it('refuses a password in it, without echoing the password (exit 2)', () => {
    const r = refused(() => parseTarget('postgres://alice:hunter2-secret@db.example:5433/prod', { env: {} }));
    expect(r).toEqual({
      type: 'UsageError',
      message:
        '--out: the postgres:// URL holds a password, which would be seen in the process list and shell history; remove it, and set PGPASSWORD or a ~/.pgpass line',
    });
    expect(refused(() => parseTarget('postgresql://:x@h/db', { env: {} })).type).toBe('UsageError');
  });

  it('reads user, host, port, database, sslmode, and the table and schema from the URL; --table wins', () => {
    const env = { HOME: tempDir() };
    const t = parseTarget('postgresql://bi%40corp@db.example:6543/warehouse?sslmode=require&schema=analytics&table=swaps', { env });
    expect(t).toEqual({
      host: 'db.example',
      port: 6543,
      database: 'warehouse',
      user: 'bi@corp',
      schema: 'analytics',
      table: 'swaps',
      sslMode: 'require',
      sslRootCert: undefined,
      connectTimeout: 10,
      password: undefined,
      passwordFrom: undefined,
    });
    expect(parseTarget('postgres://u@h/d?table=a.b', { env })).toMatchObject({ schema: 'a', table: 'b', port: 5432, sslMode: 'prefer' });
    expect(parseTarget('postgres://u@h/d?table=a.b', { env, table: 'c' })).toMatchObject({ schema: 'a', table: 'c' });
    expect(parseTarget('postgres://u@h/d', { env, table: 'x.y' })).toMatchObject({ schema: 'x', table: 'y' });
    expect(parseTarget('postgres://u@h/d', { env })).toMatchObject({ schema: 'public', table: 'xflow_swaps' });
    expect(parseTarget('postgres://u@[::1]:7000/d', { env })).toMatchObject({ host: '::1', port: 7000 });
  });

  it.each([
    [
      'postgres://u@h/d?password=x',
      "--out: the URL parameter 'password' is not one swapx reads (sslmode, sslrootcert, connect_timeout, options, table, schema, host, port, user, dbname)",
    ],
    ['postgres://u@h/d?sslmode=maybe', "--out: sslmode 'maybe' is not one of disable, allow, prefer, require, verify-ca, verify-full"],
    ['postgres://u@h/d?table=a.b.c', "--out ?table= 'a.b.c' is not a table name: give name or schema.name"],
    ['postgres://u@h/d?table=drop%20table', "--out ?table= 'drop table' is not a table name swapx uses: letters, digits and _ (not first a digit), at most 63"],
    ['postgres://u@h/d?schema=1x', "schema '1x' is not a table name swapx uses: letters, digits and _ (not first a digit), at most 63"],
    ['postgres://u@h/d?connect_timeout=-1', "--out: connect_timeout '-1' is not a number of seconds (0 to 3600)"],
  ])('%s is refused: %s', (url, message) => {
    expect(refused(() => parseTarget(url, { env: {} }))).toEqual({ type: 'UsageError', message });
  });

  it('takes the password from PGPASSWORD, else the password file (PGPASSFILE, else ~/.pgpass), as psql does', () => {
    const home = tempDir();
    const url = 'postgres://bob@db.example:5432/prod';
    expect(parseTarget(url, { env: { HOME: home, PGPASSWORD: 'from-env' } })).toMatchObject({ password: 'from-env', passwordFrom: 'PGPASSWORD' });
    const pgpass = path.join(home, '.pgpass');
    fs.writeFileSync(
      pgpass,
      ['# comment', 'other:5432:*:bob:wrong', 'db.example:5432:prod:alice:wrong', 'db.example:*:*:bob:pa\\:ss\\\\word', '*:*:*:*:last'].join('\n'),
      {
        mode: 0o600,
      },
    );
    expect(parseTarget(url, { env: { HOME: home } })).toMatchObject({ password: 'pa:ss\\word', passwordFrom: pgpass });
    // PGPASSWORD wins over the file.
    expect(parseTarget(url, { env: { HOME: home, PGPASSWORD: 'env' } })).toMatchObject({ password: 'env' });
    // PGPASSFILE names another file.
    const other = path.join(tempDir(), 'pass');
    fs.writeFileSync(other, '*:*:prod:bob:from-passfile\n', { mode: 0o600 });
    expect(parseTarget(url, { env: { HOME: home, PGPASSFILE: other } })).toMatchObject({ password: 'from-passfile', passwordFrom: other });
    // A file others may read is ignored, as libpq ignores it.
    fs.chmodSync(pgpass, 0o644);
    expect(parseTarget(url, { env: { HOME: home } })).toMatchObject({ password: undefined, passwordFrom: undefined });
  });
});

describe('opening the mirror', () => {
  const target = (extra: Partial<PgTarget> = {}) => ({ ...parseTarget(db.url, { env: db.env }), ...extra });

  it('a refused password: one line naming the user and where the password came from (exit 3)', async () => {
    const { error, code } = await openError(target({ password: 'wrong', passwordFrom: 'PGPASSWORD' }));
    expect(error).toBeInstanceOf(AuthError);
    expect(code).toBe(3);
    expect(error.message).toBe(
      `Postgres at 127.0.0.1:${db.server.port} refused the login of user "swapx_test" (password authentication failed for user "swapx_test"); the password from PGPASSWORD was refused`,
    );
  });

  it('no password at all: says where one goes (exit 3)', async () => {
    const { error, code } = await openError(target({ password: undefined, passwordFrom: undefined }));
    expect(code).toBe(3);
    expect(error.message).toMatch(
      /^Postgres at 127\.0\.0\.1:\d+ refused the login of user "swapx_test" \(.*\); no password was found: set PGPASSWORD, or add a ~\/\.pgpass line \(PGPASSFILE names another file\)$/,
    );
  });

  it('no password because the password file was ignored for its mode: names the file and its mode (exit 3)', async () => {
    const file = '/home/ann/.pgpass';
    const { error, code } = await openError(target({ password: undefined, passwordFrom: undefined, passwordFileIgnored: { file, mode: 0o640 } }));
    expect(error.name).toBe('PostgresLoginError');
    expect(code).toBe(3);
    expect(error.message).toMatch(
      /^Postgres at 127\.0\.0\.1:\d+ refused the login of user "swapx_test" \(.*\); no password was found: the password file \/home\/ann\/\.pgpass was not read, as its mode 0640 lets group or others read it \(libpq ignores it too\): chmod 600 \/home\/ann\/\.pgpass$/,
    );
  });

  it('a database that does not exist (exit 2)', async () => {
    const { error, code } = await openError(target({ database: 'no_such_db' }));
    expect(error).toBeInstanceOf(UsageError);
    expect(code).toBe(2);
    expect(error.message).toBe(`Postgres at 127.0.0.1:${db.server.port} has no database "no_such_db" (database "no_such_db" does not exist)`);
  });

  it('a server that does not answer (exit 1)', async () => {
    const { error, code } = await openError(target({ port: 1 }));
    expect(error).toBeInstanceOf(WrappedError);
    expect(code).toBe(1);
    expect(error.message).toBe('cannot reach Postgres at 127.0.0.1:1 (connection refused); run again when it is up');
  });

  it('a database the user may not connect to (exit 3)', async () => {
    const closed = `${db.database}_closed`;
    await db.admin.unsafe(`CREATE DATABASE ${closed}`);
    try {
      await db.admin.unsafe(`REVOKE CONNECT ON DATABASE ${closed} FROM PUBLIC`);
      const { error, code } = await openError(target({ database: closed }));
      expect(code).toBe(3);
      expect(error.message).toMatch(
        new RegExp(`^Postgres at 127\\.0\\.0\\.1:${db.server.port}: user "swapx_test" may not connect \\(permission denied for database "?${closed}"?\\)$`),
      );
    } finally {
      await db.admin.unsafe(`DROP DATABASE ${closed}`);
    }
  });

  it('a schema that does not exist (exit 2)', async () => {
    const { error, code } = await openError(target({ schema: 'nowhere' }));
    expect(code).toBe(2);
    expect(error.message).toBe('the schema nowhere does not exist in this database; create it (CREATE SCHEMA "nowhere") or name another');
  });

  it('a user without the right to create the table (exit 3)', async () => {
    await db.admin.unsafe(`CREATE SCHEMA locked AUTHORIZATION postgres`);
    const { error, code } = await openError(target({ schema: 'locked' }));
    expect(code).toBe(3);
    expect(error.message).toBe(
      `Postgres at 127.0.0.1:${db.server.port}: user "swapx_test" may not create or check locked.xflow_swaps (permission denied for schema locked)`,
    );
  });

  it('TLS: sslmode=require encrypts; verify-full checks the certificate against sslrootcert, and refuses one it cannot trust', async () => {
    const mirror = await PostgresMirror.open(target({ sslMode: 'require', table: 'tls_require' }), OPEN);
    const [row] =
      await db.admin`SELECT bool_and(s.ssl) AS ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.application_name = 'swapx sync' AND a.datname = current_database()`;
    expect(row).toEqual({ ssl: true });
    await mirror.close();
    const verified = await PostgresMirror.open(target({ sslMode: 'verify-full', sslRootCert: db.server.certFile, table: 'tls_verified' }), OPEN);
    await verified.close();
    const { error, code } = await openError(target({ sslMode: 'verify-full', sslRootCert: undefined, table: 'tls_untrusted' }));
    expect(code).toBe(1);
    expect(error.message).toMatch(
      new RegExp(`^Postgres at 127\\.0\\.0\\.1:${db.server.port}: the TLS connection failed \\(self[- ]signed certificate\\); check sslmode and sslrootcert$`),
    );
  });

  it('sslmode=require against a server without TLS: one line saying so (exit 1)', async () => {
    // A server that answers the TLS request with "no", as one with ssl=off does, and closes on what follows.
    const plain = net.createServer((socket) => {
      let first = true;
      socket.on('data', (data) => {
        if (first && data.length === 8 && data.readInt32BE(4) === 80877103) {
          first = false;
          socket.write('N');
        } else socket.destroy();
      });
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const port = (plain.address() as net.AddressInfo).port;
    try {
      const { error, code } = await openError(target({ port, sslMode: 'require' }));
      expect(code).toBe(1);
      expect(error.message).toBe(
        `Postgres at 127.0.0.1:${port} closed the connection before TLS was set up: it may not offer TLS, which sslmode=require requires`,
      );
    } finally {
      plain.close();
    }
  });
});

describe('a table that exists', () => {
  const target = (table: string) => parseTarget(db.url, { env: db.env, table });

  it.each([
    [
      'a column of another type',
      'CREATE TABLE t1 (_swapx_key text PRIMARY KEY, completed_at text)',
      't1',
      'column completed_at is text, swapx writes timestamp with time zone',
    ],
    ['another primary key', 'CREATE TABLE t2 (_swapx_key text, id text PRIMARY KEY)', 't2', 'its primary key is (id), not (_swapx_key)'],
    ['no key column', 'CREATE TABLE t3 (id text PRIMARY KEY)', 't3', 'it has no _swapx_key column'],
    [
      'a NOT NULL column of the user',
      'CREATE TABLE t4 (_swapx_key text PRIMARY KEY, owner text NOT NULL)',
      't4',
      'column owner is NOT NULL without a default, and swapx does not fill it',
    ],
    ['a view', 'CREATE VIEW t5 AS SELECT 1 AS _swapx_key', 't5', 'it is not a table'],
  ])('of another shape is refused, named, and left as it is (exit 2): %s', async (_name, ddl, table, why) => {
    await db.sql.unsafe(ddl);
    const { error, code } = await openError(target(table));
    expect(code).toBe(2);
    expect(error.message).toBe(
      `public.${table} exists but is not a swaps mirror swapx can write (${why}); it was left as it is: name another table with --table`,
    );
  });

  it("made by an older swapx: the columns it lacks are added, the user's own columns and rows kept", async () => {
    const first = await PostgresMirror.open(target('older'), OPEN);
    await first.close();
    await db.sql.unsafe(`ALTER TABLE older DROP COLUMN balance_changes, DROP COLUMN _swapx_loaded_at, ADD COLUMN note text DEFAULT 'mine'`);
    await db.sql.unsafe(`INSERT INTO older (_swapx_key, id, note) VALUES ('k', 'k', 'kept')`);
    const again = await PostgresMirror.open(target('older'), OPEN);
    expect(again.ensured.added).toEqual(['balance_changes', '_swapx_loaded_at']);
    await again.close();
    const [row] = await db.sql`SELECT id, note FROM older`;
    expect(row).toEqual({ id: 'k', note: 'kept' });
  });

  it('a state table of another shape is refused', async () => {
    await db.sql.unsafe('CREATE SCHEMA odd');
    await db.sql.unsafe('CREATE TABLE odd.swapx_sync_state (mirror text PRIMARY KEY, cursor bigint)');
    const { error, code } = await openError(parseTarget(db.url, { env: db.env, table: 'odd.swaps' }));
    expect(code).toBe(2);
    expect(error.message).toBe('odd.swapx_sync_state lacks the column query: it was not made by swapx, or was edited; it was left as it is');
  });
});
