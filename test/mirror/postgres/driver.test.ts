/**
 * The driver's connection and its errors (src/mirror/postgres/driver.ts): the connection made from a PgTarget alone (TCP or
 * a Unix socket, each sslmode, its certificate checks) against the real server, its fixed options, and the one line
 * each kind of driver error becomes, with its class (the exit code) and the error kept as its cause.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import type net from 'node:net';
import path from 'node:path';
import { AuthError, SwapxError, UsageError, WrappedError } from '../../../src/api/errors.js';
import { exitCodeFor } from '../../../src/cli/exit-codes.js';
import { APPLICATION_NAME, connect, connectionHooks, type Db, describeError } from '../../../src/mirror/postgres/driver.js';
import { PostgresStatementError } from '../../../src/mirror/postgres/errors.js';
import type { PgTarget } from '../../../src/mirror/postgres/target.js';
import { tempDir } from '../../helpers/cli.js';
import { pgTarget, usePostgres } from '../../helpers/postgres.js';

const db = usePostgres();
const target = (extra: Partial<PgTarget> = {}): PgTarget => ({ ...pgTarget(db), ...extra });

/** Connects, runs one query, and ends the connection. */
async function ask(t: PgTarget, query = 'SELECT current_user AS user') {
  const sql = await connect(t);
  try {
    return (await sql.unsafe(query))[0];
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/** What connecting throws, described as a sync would say it. */
async function failure(t: PgTarget): Promise<Error> {
  const sql = await connect(t).catch((e: unknown) => e as Error);
  if (sql instanceof Error) return sql;
  try {
    await sql`SELECT 1`;
  } catch (error) {
    return describeError(error, t, 'connect');
  } finally {
    await sql.end({ timeout: 1 });
  }
  throw new Error('connected');
}

const SSL_QUERY = `SELECT s.ssl, current_setting('application_name') AS app, inet_client_addr() IS NULL AS socket
  FROM pg_stat_ssl s WHERE s.pid = pg_backend_pid()`;

describe('connect', () => {
  it('names itself swapx sync, over TCP without TLS when sslmode=disable', async () => {
    expect(APPLICATION_NAME).toBe('swapx sync');
    expect(await ask(target({ sslMode: 'disable' }), SSL_QUERY)).toEqual({ ssl: false, app: 'swapx sync', socket: false });
  });

  it('prefer and allow take the TLS the server offers; require insists on it', async () => {
    for (const sslMode of ['prefer', 'allow', 'require'] as const) {
      expect(await ask(target({ sslMode }), SSL_QUERY)).toEqual({ ssl: true, app: 'swapx sync', socket: false });
    }
  });

  it('a host that is a directory is the Unix socket in it (no TLS there)', async () => {
    // The socket's logins are trusted: the test role logs in with no password.
    const t = target({ host: db.server.socketDir, password: undefined, sslMode: 'disable' });
    expect(await ask(t, SSL_QUERY)).toEqual({ ssl: false, app: 'swapx sync', socket: true });
  });

  it('verify-full trusts the certificate through sslrootcert and checks the name; verify-ca checks the chain only', async () => {
    const cert = db.server.certFile;
    expect(await ask(target({ sslMode: 'verify-full', sslRootCert: cert, host: 'localhost' }), SSL_QUERY)).toEqual({
      ssl: true,
      app: 'swapx sync',
      socket: false,
    });
    expect(await ask(target({ sslMode: 'verify-full', sslRootCert: cert }), SSL_QUERY)).toMatchObject({ ssl: true });
    // 127.1 is 127.0.0.1 to the resolver, a name the certificate (localhost, 127.0.0.1) does not hold.
    expect(await ask(target({ sslMode: 'verify-ca', sslRootCert: cert, host: '127.1' }), SSL_QUERY)).toMatchObject({ ssl: true });
    const wrongName = await failure(target({ sslMode: 'verify-full', sslRootCert: cert, host: '127.1' }));
    expect(wrongName.message).toMatch(
      new RegExp(
        `^Postgres at 127\\.1:${db.server.port}: the TLS connection failed \\(Hostname/IP does not match certificate's altnames: .*\\); check sslmode and sslrootcert$`,
      ),
    );
    // Without the certificate, neither trusts it.
    for (const sslMode of ['verify-ca', 'verify-full'] as const) {
      expect((await failure(target({ sslMode, sslRootCert: undefined }))).message).toMatch(/: the TLS connection failed \(self[- ]signed certificate\)/);
    }
  });

  it("a target without a password sends none: the process's PGPASSWORD is not read behind the caller's back", async () => {
    const saved = process.env.PGPASSWORD;
    process.env.PGPASSWORD = db.server.password;
    try {
      const error = await failure(target({ password: undefined, passwordFrom: undefined }));
      expect(error).toBeInstanceOf(AuthError);
      expect(error.message).toMatch(/^Postgres at 127\.0\.0\.1:\d+ refused the login of user "swapx_test" \(.*\); no password was found/);
      // The password given is the one sent.
      expect(await ask(target())).toEqual({ user: 'swapx_test' });
    } finally {
      if (saved === undefined) delete process.env.PGPASSWORD;
      else process.env.PGPASSWORD = saved;
    }
  });

  it("the socket is swapx's own (so that a session can destroy it), and the hooks see each statement, socket and close", async () => {
    const seen = { statements: 0, sockets: [] as net.Socket[], closes: 0 };
    const sql = await connect(target({ sslMode: 'disable' }));
    Object.assign(connectionHooks(sql), {
      onStatement: () => seen.statements++,
      onSocket: (socket: net.Socket) => seen.sockets.push(socket),
      onClose: () => seen.closes++,
    });
    await sql`SELECT 1`;
    await sql`SELECT 2`;
    expect(seen.statements).toBe(2);
    expect(seen.sockets).toHaveLength(1);
    expect(seen.sockets[0]!.remotePort).toBe(db.server.port);
    await sql.end();
    expect(seen.closes).toBe(1);
    // A connection made elsewhere has none.
    expect(() => connectionHooks(db.sql as unknown as Db)).toThrow('not a connection of connect()');
  });

  it('sslmode=disable hands the driver no TLS at all', async () => {
    const sql = await connect(target({ sslMode: 'disable', password: undefined }));
    expect((sql.options as unknown as { ssl: unknown }).ssl).toBe(false);
    // No password: an empty one.
    expect((sql.options as unknown as { pass: () => unknown }).pass()).toBe('');
    await sql.end();
  });

  it('an sslrootcert that cannot be read: UsageError naming it', async () => {
    const missing = path.join(tempDir(), 'root.crt');
    const error = await connect(target({ sslMode: 'verify-ca', sslRootCert: missing })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(`sslrootcert ${missing} cannot be read (ENOENT)`);
    const dir = tempDir();
    expect(((await connect(target({ sslMode: 'verify-full', sslRootCert: dir })).catch((e: unknown) => e)) as Error).message).toBe(
      `sslrootcert ${dir} cannot be read (EISDIR)`,
    );
    // Not read when the mode does not verify.
    const sql = await connect(target({ sslMode: 'require', sslRootCert: missing }));
    await sql.end();
  });

  it('its options: one connection for the run, never recycled, no notices, no type lookup, the timeout given', async () => {
    const sql = await connect(target({ connectTimeout: 7 }));
    try {
      const o = sql.options as unknown as Record<string, unknown>;
      expect({
        host: o.host,
        port: o.port,
        path: o.path,
        database: o.database,
        user: o.user,
        max: o.max,
        idle_timeout: o.idle_timeout,
        max_lifetime: o.max_lifetime,
        connect_timeout: o.connect_timeout,
        keep_alive: o.keep_alive,
        prepare: o.prepare,
        fetch_types: o.fetch_types,
        debug: typeof o.debug,
        socket: typeof o.socket,
        onclose: typeof o.onclose,
        backoff: o.backoff,
        connection: o.connection,
        target_session_attrs: o.target_session_attrs,
        ssl: o.ssl,
      }).toEqual({
        host: ['127.0.0.1'],
        port: [db.server.port],
        path: false,
        database: db.database,
        user: 'swapx_test',
        max: 1,
        idle_timeout: 0,
        max_lifetime: null,
        connect_timeout: 7,
        keep_alive: 60,
        prepare: true,
        fetch_types: false,
        debug: 'function',
        socket: 'function',
        onclose: 'function',
        backoff: false,
        connection: { application_name: 'swapx sync' },
        target_session_attrs: undefined,
        ssl: 'prefer',
      });
      expect((o.pass as () => unknown)()).toBe(db.server.password);
      expect(typeof o.onnotice).toBe('function');
      expect((o.onnotice as (n: unknown) => unknown)({ message: 'a notice' })).toBeUndefined();
    } finally {
      await sql.end();
    }
    const forever = await connect(target({ connectTimeout: 0, sslMode: 'verify-full', sslRootCert: db.server.certFile }));
    const o = forever.options as unknown as { connect_timeout: number; ssl: Record<string, unknown> };
    expect(o.connect_timeout).toBe(3600);
    expect((forever.options as unknown as { pass: () => unknown }).pass()).toBe(db.server.password);
    expect(Object.keys(o.ssl).sort()).toEqual(['ca', 'host', 'rejectUnauthorized']);
    expect(o.ssl).toMatchObject({ rejectUnauthorized: true, host: '127.0.0.1', ca: fs.readFileSync(db.server.certFile) });
    await forever.end();
    // A name is also the server name (SNI); an address is not; a socket has neither.
    const named = await connect(target({ host: 'localhost', sslMode: 'verify-ca' }));
    const ssl = (named.options as unknown as { ssl: Record<string, unknown> }).ssl;
    expect(Object.keys(ssl).sort()).toEqual(['checkServerIdentity', 'host', 'rejectUnauthorized', 'servername']);
    expect(ssl).toMatchObject({ host: 'localhost', servername: 'localhost' });
    expect((ssl.checkServerIdentity as () => unknown)()).toBeUndefined();
    await named.end();
    const socket = await connect(target({ host: '/run/pg', sslMode: 'verify-full' }));
    expect((socket.options as unknown as { ssl: Record<string, unknown>; path: string }).ssl).toEqual({ rejectUnauthorized: true });
    expect((socket.options as unknown as { path: string }).path).toBe(`/run/pg/.s.PGSQL.${db.server.port}`);
    expect((socket.options as unknown as { host: string[] }).host).toEqual(['/run/pg']);
    await socket.end();
  });
});

const T: PgTarget = {
  host: 'db.example',
  port: 5432,
  database: 'prod',
  user: 'bob',
  schema: 'public',
  table: 't',
  sslMode: 'require',
  sslRootCert: undefined,
  connectTimeout: 10,
  password: 'pw',
  passwordFrom: 'PGPASSWORD',
};
const serverError = (code: string | undefined, message = 'the server says\nDETAIL: more') => Object.assign(new Error(message), { severity: 'ERROR', code });
const clientError = (code: string | undefined, message = 'the client says\nmore') => Object.assign(new Error(message), { code });

/** The class, message, and whether the error is kept as the cause. */
function described(error: unknown, t: PgTarget = T) {
  const out = describeError(error, t, 'do it');
  return { type: out.constructor.name, message: out.message, cause: out.cause === error };
}

describe('describeError', () => {
  it('a swapx error is returned as it is', () => {
    const own = new UsageError('mine');
    expect(describeError(own, T, 'x')).toBe(own);
    const other = new SwapxError('base');
    expect(describeError(other, T, 'x')).toBe(other);
  });

  it('a refused login: AuthError naming the user and where the password came from, or that none was found', () => {
    for (const code of ['28P01', '28000']) {
      expect(described(serverError(code))).toEqual({
        type: 'PostgresLoginError',
        message: 'Postgres at db.example:5432 refused the login of user "bob" (the server says); the password from PGPASSWORD was refused',
        cause: true,
      });
    }
    expect(described(serverError('28P01'), { ...T, password: undefined, passwordFrom: undefined })).toEqual({
      type: 'PostgresLoginError',
      message:
        'Postgres at db.example:5432 refused the login of user "bob" (the server says); no password was found: set PGPASSWORD, or add a ~/.pgpass line (PGPASSFILE names another file)',
      cause: true,
    });
    // The same code from the client is no login refused.
    expect(described(clientError('28P01'))).toEqual({
      type: 'WrappedError',
      message: 'Postgres at db.example:5432: do it failed (the client says)',
      cause: true,
    });
  });

  it('a database that does not exist: UsageError; a permission refused: PostgresPermissionError; no room for a connection: run again later', () => {
    expect(described(serverError('3D000'))).toEqual({
      type: 'UsageError',
      message: 'Postgres at db.example:5432 has no database "prod" (the server says)',
      cause: true,
    });
    expect(described(serverError('42501'))).toEqual({
      type: 'PostgresPermissionError',
      message: 'Postgres at db.example:5432: user "bob" may not do it (the server says)',
      cause: true,
    });
    for (const code of ['53300', '57P03']) {
      expect(described(serverError(code))).toEqual({
        type: 'PostgresConnectionError',
        message: 'Postgres at db.example:5432 takes no connection now (the server says); run again later',
        cause: true,
      });
    }
    for (const code of ['3D000', '42501', '53300', '57P03'])
      expect(described(clientError(code)).message).toBe('Postgres at db.example:5432: do it failed (the client says)');
  });

  it('a session the server ended (terminated, shut down, timed out idle, a connection exception): the connection, with what was being done', () => {
    for (const code of ['57P01', '57P02', '57P05', '25P03', '08006', '08P01']) {
      expect(described(serverError(code))).toEqual({
        type: 'PostgresConnectionError',
        message: `Postgres at db.example:5432 ended the session while trying to do it (the server says, SQLSTATE ${code}); run again when it is up`,
        cause: true,
      });
    }
    for (const code of ['57P04', '57P0', '08', '0800', '080000', 'X08000', '25P02', '57014'])
      expect(described(serverError(code)).type).not.toBe('PostgresConnectionError');
  });

  it('any other server error: a statement failed, its first line and SQLSTATE; a lock waited for too long has a class of its own', () => {
    expect(described(serverError('23514'))).toEqual({
      type: 'PostgresStatementError',
      message: 'Postgres at db.example:5432: do it failed (the server says, SQLSTATE 23514)',
      cause: true,
    });
    expect((describeError(serverError('23514'), T, 'x') as PostgresStatementError).sqlState).toBe('23514');
    expect(described(serverError('55P03'))).toEqual({
      type: 'PostgresLockTimeoutError',
      message: 'Postgres at db.example:5432: do it failed (the server says, SQLSTATE 55P03)',
      cause: true,
    });
    expect(describeError(serverError('55P03'), T, 'x')).toBeInstanceOf(PostgresStatementError);
    expect(described(serverError(undefined))).toEqual({
      type: 'PostgresStatementError',
      message: 'Postgres at db.example:5432: do it failed (the server says)',
      cause: true,
    });
    expect((describeError(serverError(undefined), T, 'x') as PostgresStatementError).sqlState).toBeUndefined();
    expect(described(Object.assign(new Error('x'), { severity: 'FATAL', code: 42 })).message).toBe('Postgres at db.example:5432: do it failed (x)');
  });

  it('a server that closes the connection before TLS, when TLS is required: says it may not offer TLS', () => {
    const reset = clientError('ECONNRESET', 'Client network socket disconnected before secure TLS connection was established');
    for (const sslMode of ['require', 'verify-ca', 'verify-full', 'disable'] as const) {
      expect(described(reset, { ...T, sslMode })).toEqual({
        type: 'PostgresTlsError',
        message: `Postgres at db.example:5432 closed the connection before TLS was set up: it may not offer TLS, which sslmode=${sslMode} requires`,
        cause: true,
      });
    }
    for (const sslMode of ['prefer', 'allow'] as const) {
      expect(describeError(reset, { ...T, sslMode }, 'connect').message).toBe(
        'cannot reach Postgres at db.example:5432 (connection reset); run again when it is up',
      );
    }
    expect(describeError(clientError('ECONNRESET', 'read ECONNRESET'), T, 'connect').message).toBe(
      'cannot reach Postgres at db.example:5432 (connection reset); run again when it is up',
    );
    expect(described(clientError('EPIPE', 'before secure TLS connection')).message).toBe(
      'lost the connection to Postgres at db.example:5432 while trying to do it (connection broken); run again when it is up',
    );
  });

  it.each([
    'SELF_SIGNED_CERT_IN_CHAIN',
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'UNABLE_TO_GET_ISSUER_CERT',
    'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    'CERT_HAS_EXPIRED',
    'ERR_TLS_CERT_ALTNAME_INVALID',
    'CERT_UNTRUSTED',
    'ERR_SSL_WRONG_VERSION_NUMBER',
    'ERR_SSL_',
    'EPROTO',
  ])('a TLS failure (%s): check sslmode and sslrootcert', (code) => {
    expect(described(clientError(code))).toEqual({
      type: 'PostgresTlsError',
      message: 'Postgres at db.example:5432: the TLS connection failed (the client says); check sslmode and sslrootcert',
      cause: true,
    });
  });

  it.each(['XEPROTO', 'EPROTOX', 'CERT_HAS_EXPIRED_', 'UNABLE_TO_GET_ISSUER_CERTX', 'XERR_SSL_X', 'ERR_SSL'])('%s is no TLS failure', (code) => {
    expect(described(clientError(code)).message).toBe('Postgres at db.example:5432: do it failed (the client says)');
  });

  it.each([
    ['ECONNREFUSED', 'connection refused'],
    ['ENOTFOUND', 'host not found'],
    ['EAI_AGAIN', 'host name lookup failed'],
    ['EHOSTUNREACH', 'host unreachable'],
    ['EHOSTDOWN', 'host down'],
    ['ENETUNREACH', 'network unreachable'],
    ['ENETDOWN', 'network down'],
    ['ETIMEDOUT', 'timed out'],
    ['ENOENT', 'no such socket'],
    ['CONNECT_TIMEOUT', 'timed out connecting'],
  ])('a server not reached (%s): %s, run again when it is up', (code, what) => {
    expect(described(clientError(code))).toEqual({
      type: 'PostgresConnectionError',
      message: `cannot reach Postgres at db.example:5432 (${what}); run again when it is up`,
      cause: true,
    });
  });

  it.each([
    ['ECONNRESET', 'connection reset'],
    ['ECONNABORTED', 'connection aborted'],
    ['EPIPE', 'connection broken'],
    ['CONNECTION_CLOSED', 'the server closed the connection'],
    ['CONNECTION_DESTROYED', 'the connection was closed'],
    ['CONNECTION_ENDED', 'the connection was closed'],
  ])('a connection lost (%s): %s, while doing what; connecting, the server was not reached', (code, what) => {
    expect(described(clientError(code))).toEqual({
      type: 'PostgresConnectionError',
      message: `lost the connection to Postgres at db.example:5432 while trying to do it (${what}); run again when it is up`,
      cause: true,
    });
    const connecting = describeError(clientError(code), T, 'connect');
    expect({ type: connecting.constructor.name, message: connecting.message }).toEqual({
      type: 'PostgresConnectionError',
      message: `cannot reach Postgres at db.example:5432 (${what}); run again when it is up`,
    });
  });

  it('anything else: what failed and its first line; a value that is no error is written as it is', () => {
    expect(described(clientError('ESOMETHING'))).toEqual({
      type: 'WrappedError',
      message: 'Postgres at db.example:5432: do it failed (the client says)',
      cause: true,
    });
    expect(described(clientError(undefined))).toEqual({
      type: 'WrappedError',
      message: 'Postgres at db.example:5432: do it failed (the client says)',
      cause: true,
    });
    expect(described('toString' as unknown)).toEqual({ type: 'WrappedError', message: 'Postgres at db.example:5432: do it failed (toString)', cause: true });
    expect(described({ message: 42, code: 'toString' })).toEqual({
      type: 'WrappedError',
      message: 'Postgres at db.example:5432: do it failed ([object Object])',
      cause: true,
    });
    expect(described({ code: 7 }, { ...T, host: '/run/pg' }).message).toBe('Postgres at /run/pg (socket, port 5432): do it failed ([object Object])');
  });

  it('each class is the exit code it documents', () => {
    expect(describeError(serverError('28P01'), T, 'x')).toBeInstanceOf(AuthError);
    expect(describeError(serverError('42501'), T, 'x')).toBeInstanceOf(AuthError);
    expect(describeError(serverError('3D000'), T, 'x')).toBeInstanceOf(UsageError);
    for (const error of [clientError('ECONNREFUSED'), clientError('EPROTO'), serverError('23514'), serverError('55P03'), serverError('57P01')]) {
      expect(describeError(error, T, 'x')).toBeInstanceOf(WrappedError);
      expect(exitCodeFor(describeError(error, T, 'x'))).toBe(1);
    }
    expect(exitCodeFor(describeError(serverError('28P01'), T, 'x'))).toBe(3);
    expect(exitCodeFor(describeError(serverError('42501'), T, 'x'))).toBe(3);
  });
});
