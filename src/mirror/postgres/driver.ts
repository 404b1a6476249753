/**
 * The Postgres driver (`postgres`, chosen by measurement: see docs/postgres.md),
 * loaded only when a Postgres destination is used, and its connection made
 * from a PgTarget alone: every option is given, so nothing is read from the
 * process's environment behind the caller's back (the CLI's env is injected).
 * One connection: the advisory lock is held by a session, and every write
 * must be made on the session that holds it.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type postgres from 'postgres';
import { SwapxError, UsageError, WrappedError } from '../../api/errors.js';
import {
  PostgresConnectionError,
  PostgresLockTimeoutError,
  PostgresLoginError,
  PostgresPermissionError,
  PostgresStatementError,
  PostgresTlsError,
} from './errors.js';
import { hostPort, type PgTarget } from './target.js';

export type Db = postgres.Sql;
/** A connection or a transaction on it */
export type Sql = postgres.ISql;
export type JSONValue = postgres.JSONValue;

/** What the connection says in Postgres's views (pg_stat_activity): who holds a lock. */
export const APPLICATION_NAME = 'swapx sync';

function tlsOption(target: PgTarget): postgres.Options<Record<string, postgres.PostgresType>>['ssl'] {
  switch (target.sslMode) {
    case 'disable':
      return false;
    case 'allow':
    case 'prefer':
      return 'prefer';
    case 'require':
      return 'require';
    case 'verify-ca':
    case 'verify-full': {
      let ca: Buffer | undefined;
      if (target.sslRootCert !== undefined) {
        try {
          ca = fs.readFileSync(target.sslRootCert);
        } catch (error) {
          throw new UsageError(`sslrootcert ${target.sslRootCert} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
        }
      }
      return {
        rejectUnauthorized: true,
        ...(ca ? { ca } : {}),
        // The name checked against the certificate; SNI only for a name (an address is not a server name: RFC 6066).
        ...(target.host.startsWith('/') ? {} : { host: target.host, ...(net.isIP(target.host) ? {} : { servername: target.host }) }),
        // verify-ca checks the chain only; verify-full also the host name (Node's default check).
        ...(target.sslMode === 'verify-ca' ? { checkServerIdentity: () => undefined } : {}),
      };
    }
  }
}

/** What the session (session.ts) watches on a connection, set by it once the connection is made. */
export interface ConnectHooks {
  /** each statement as the driver sends it */
  onStatement?: () => void;
  /** each socket as it is made (one per connection made, again after one is lost) */
  onSocket?: (socket: net.Socket) => void;
  /** the connection closed (the driver makes it again for the next statement) */
  onClose?: () => void;
}

const hooksOf = new WeakMap<Db, ConnectHooks>();

/** The hooks of a connection that connect() made. */
export function connectionHooks(db: Db): ConnectHooks {
  const hooks = hooksOf.get(db);
  if (!hooks) throw new Error('not a connection of connect()');
  return hooks;
}

/** The socket to the server, made here rather than by the driver so that a session can destroy it (session.ts). */
function openSocket(target: PgTarget): net.Socket {
  // A directory (it starts with /): the socket in it, DIR/.s.PGSQL.PORT, as libpq does.
  const socket = target.host.startsWith('/')
    ? net.connect({ path: path.join(target.host, `.s.PGSQL.${target.port}`) })
    : net.connect({ host: target.host, port: target.port });
  // The driver names the TLS server from this when it made the socket itself.
  return Object.assign(socket, { host: target.host });
}

/** Connects (lazily: the first query opens the connection). */
export async function connect(target: PgTarget): Promise<Db> {
  const { default: open } = await import('postgres');
  const hooks: ConnectHooks = {};
  const options = {
    host: target.host,
    port: target.port,
    database: target.database,
    user: target.user,
    username: target.user,
    // A function: an empty password would be falsy, and the driver would take PGPASSWORD from the process instead.
    pass: () => target.password ?? '',
    ssl: tlsOption(target),
    max: 1,
    idle_timeout: 0,
    // The connection lives as long as the run: a recycled one would drop the advisory lock.
    max_lifetime: null,
    connect_timeout: target.connectTimeout === 0 ? 3600 : target.connectTimeout,
    keep_alive: 60,
    prepare: true,
    fetch_types: false,
    // The driver's hook for each statement: the session's clock for an answer that does not come.
    debug: () => hooks.onStatement?.(),
    onclose: () => hooks.onClose?.(),
    socket: () => {
      const socket = openSocket(target);
      hooks.onSocket?.(socket);
      return socket;
    },
    backoff: false,
    onnotice: () => {},
    // Only what every server and pooler takes at the start: settings are SET once the session is ours (session.ts).
    connection: { application_name: APPLICATION_NAME },
    target_session_attrs: undefined,
  };
  // `socket` is a documented option (README, "Custom socket") that the driver's types leave out.
  const db = open(options as postgres.Options<Record<string, postgres.PostgresType>>);
  hooksOf.set(db, hooks);
  return db;
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ECONNABORTED: 'connection aborted',
  EPIPE: 'connection broken',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  EHOSTDOWN: 'host down',
  ENETUNREACH: 'network unreachable',
  ENETDOWN: 'network down',
  ETIMEDOUT: 'timed out',
  ENOENT: 'no such socket',
  CONNECT_TIMEOUT: 'timed out connecting',
  CONNECTION_CLOSED: 'the server closed the connection',
  CONNECTION_DESTROYED: 'the connection was closed',
  CONNECTION_ENDED: 'the connection was closed',
};

/** Those of them that end a connection made (the others fail making it). */
const LOST_CODES = new Set(['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'CONNECTION_CLOSED', 'CONNECTION_DESTROYED', 'CONNECTION_ENDED']);

const TLS_CODES =
  /^(SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_HAS_EXPIRED|ERR_TLS_CERT_ALTNAME_INVALID|CERT_UNTRUSTED|ERR_SSL_.*|EPROTO)$/;

/**
 * SQLSTATEs of a session the server ended or will not start: too many connections, starting up or shutting down
 * (57P03), terminated by an administrator (57P01, pg_terminate_backend) or a crash (57P02), idle too long in a
 * transaction (25P03) or a session (57P05), and class 08 (connection exception).
 */
const SESSION_ENDED = /^(53300|57P0[1235]|25P03|08...)$/;

/** A file's permission bits as chmod takes them: 0644. */
const modeText = (mode: number) => `0${(mode & 0o777).toString(8).padStart(3, '0')}`;

/**
 * One line for a driver's error, by what the user can do about it, each of a class a monitor tells apart
 * (errors.ts) with the documented exit code: a refused login or permission is AuthError's (3); a database named
 * wrongly is UsageError (2); an unreachable server or a lost connection, a TLS failure, a failed statement are
 * failures (1). The password is in none of them: neither the driver's options nor the URL are quoted, and the
 * server never sends it.
 */
export function describeError(error: unknown, target: PgTarget, doing: string): Error {
  if (error instanceof SwapxError) return error;
  const where = `Postgres at ${hostPort(target)}`;
  const e = error as { code?: unknown; message?: unknown; severity?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message.split('\n')[0]! : String(error);
  const isServer = typeof e.severity === 'string';
  const cause = { cause: error };
  if (isServer && (code === '28P01' || code === '28000')) {
    const ignored = target.passwordFileIgnored;
    const hint =
      target.password !== undefined
        ? `the password from ${target.passwordFrom} was refused`
        : ignored
          ? `no password was found: the password file ${ignored.file} was not read, as its mode ${modeText(ignored.mode)} lets group or others read it (libpq ignores it too): chmod 600 ${ignored.file}`
          : 'no password was found: set PGPASSWORD, or add a ~/.pgpass line (PGPASSFILE names another file)';
    return new PostgresLoginError(`${where} refused the login of user "${target.user}" (${message}); ${hint}`, cause);
  }
  if (isServer && code === '3D000') return new UsageError(`${where} has no database "${target.database}" (${message})`, cause);
  if (isServer && code === '42501') return new PostgresPermissionError(`${where}: user "${target.user}" may not ${doing} (${message})`, cause);
  if (isServer && (code === '53300' || code === '57P03')) {
    return new PostgresConnectionError(`${where} takes no connection now (${message}); run again later`, cause);
  }
  if (isServer && SESSION_ENDED.test(code)) {
    return new PostgresConnectionError(`${where} ended the session while trying to ${doing} (${message}, SQLSTATE ${code}); run again when it is up`, cause);
  }
  if (isServer) {
    const sqlState = code || undefined;
    const text = `${where}: ${doing} failed (${message}${code ? `, SQLSTATE ${code}` : ''})`;
    return code === '55P03' ? new PostgresLockTimeoutError(text, sqlState, cause) : new PostgresStatementError(text, sqlState, cause);
  }
  // Asked for TLS, the server answered that it has none (libpq: "server does not support SSL, but SSL was required").
  if (code === 'ECONNRESET' && /before secure TLS connection/.test(message) && target.sslMode !== 'prefer' && target.sslMode !== 'allow') {
    return new PostgresTlsError(`${where} closed the connection before TLS was set up: it may not offer TLS, which sslmode=${target.sslMode} requires`, cause);
  }
  if (TLS_CODES.test(code)) return new PostgresTlsError(`${where}: the TLS connection failed (${message}); check sslmode and sslrootcert`, cause);
  // Own keys only: `in` would also find what every object inherits (a code 'toString' is no network failure).
  if (Object.hasOwn(NETWORK_CODES, code)) {
    // A connection made and then lost: what was being done is said (none of it was written).
    const text =
      LOST_CODES.has(code) && doing !== 'connect'
        ? `lost the connection to ${where} while trying to ${doing} (${NETWORK_CODES[code]}); run again when it is up`
        : `cannot reach ${where} (${NETWORK_CODES[code]}); run again when it is up`;
    return new PostgresConnectionError(text, cause);
  }
  return new WrappedError(`${where}: ${doing} failed (${message})`, cause);
}
