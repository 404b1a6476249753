/**
 * Where a Postgres mirror lives: a `postgres://` or `postgresql://` URL read
 * the way libpq reads it, with swapx's rule that no secret is a command-line
 * value (a password in the URL is refused, and never echoed). The password
 * comes from PGPASSWORD or the password file (PGPASSFILE, else ~/.pgpass),
 * as for psql. The table is `xflow_swaps` in `public` unless the URL's
 * `table`/`schema` parameters or --table name another.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../../api/errors.js';
import { AddressError, type AddressPart } from '../../sync/errors.js';
import { lookUpPassword } from './pgpass.js';
import { parseServerOptions } from './server-options.js';

export const DEFAULT_TABLE = 'xflow_swaps';
export const DEFAULT_SCHEMA = 'public';
export const DEFAULT_PORT = 5432;
/** libpq's own default is prefer: TLS when the server offers it, unverified */
export const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'] as const;
export type SslMode = (typeof SSL_MODES)[number];

export interface PgTarget {
  /** a host name or address, or a Unix socket directory (starts with /) */
  host: string;
  port: number;
  database: string;
  user: string;
  schema: string;
  table: string;
  sslMode: SslMode;
  /** a CA file for verify-ca / verify-full (sslrootcert, PGSSLROOTCERT or ~/.postgresql/root.crt) */
  sslRootCert: string | undefined;
  /** seconds; 0: wait for as long as the OS does */
  connectTimeout: number;
  /** from PGPASSWORD or the password file; never printed */
  password: string | undefined;
  /** where the password came from, for -v: 'PGPASSWORD', the password file's path, or undefined */
  passwordFrom: string | undefined;
  /** the session's settings from the URL's options or PGOPTIONS (server-options.ts); they win over swapx's bounds */
  settings?: Record<string, string>;
  /** a password file not read because group or others may read it (libpq's rule): its path and mode, for the warning and the login's error */
  passwordFileIgnored?: { file: string; mode: number };
}

/** The URL as it may be shown (it holds no password: one is refused), `postgres://u@h:5432/db` with the table. */
export function describeTarget(target: Pick<PgTarget, 'host' | 'port' | 'database' | 'user' | 'schema' | 'table'>): string {
  return `${target.user}@${hostPort(target)}/${target.database} ${qualifiedName(target)}`;
}

export function hostPort(target: Pick<PgTarget, 'host' | 'port'>): string {
  return target.host.startsWith('/')
    ? `${target.host} (socket, port ${target.port})`
    : `${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`;
}

/** schema.table as a person writes it */
export function qualifiedName(target: Pick<PgTarget, 'schema' | 'table'>): string {
  return `${target.schema}.${target.table}`;
}

/** A problem in the URL itself. */
const IN_URL = { kind: 'url' } as const;

const KNOWN_PARAMS = new Set(['sslmode', 'sslrootcert', 'connect_timeout', 'options', 'table', 'schema', 'host', 'port', 'user', 'dbname']);
/** A table or schema name swapx creates and quotes: letters, digits, _ and $, not starting with a digit, as Postgres's own limit of 63 bytes. */
const NAME_RE = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;

/** `what`: where the name was given (the table option, the URL's ?table=), or the schema's own name (`schema`). */
function checkName(name: string, what: AddressPart | 'schema'): string {
  if (NAME_RE.test(name)) return name;
  const rest = ` '${name}' is not a table name swapx uses: letters, digits and _ (not first a digit), at most 63`;
  throw what === 'schema' ? new UsageError(`schema${rest}`) : new AddressError(what, rest);
}

/** The table option / ?table=: `name` or `schema.name`. */
function splitTable(text: string, what: AddressPart): { schema?: string; table: string } {
  const parts = text.split('.');
  if (parts.length > 2) throw new AddressError(what, ` '${text}' is not a table name: give name or schema.name`);
  return parts.length === 2 ? { schema: checkName(parts[0]!, what), table: checkName(parts[1]!, what) } : { table: checkName(parts[0]!, what) };
}

export interface TargetOptions {
  /** --table, `name` or `schema.name`; wins over the URL's parameters */
  table?: string;
  env: NodeJS.ProcessEnv;
}

/**
 * The URL in parts as libpq reads it: the user and password are taken off first, because WHATWG's URL refuses an
 * empty host after them (`postgres://user@/db?host=/var/run/postgresql`, the form psql takes for a Unix socket, or
 * `postgres://user@:5433/db`), which libpq reads as the host from ?host=, PGHOST or the default.
 */
function readUrl(text: string): { url: URL; user: string; password: boolean; port: string } {
  const match = /^(postgres(?:ql)?:\/\/)([^/?#]*)(.*)$/is.exec(text);
  if (!match) throw new Error('not a postgres:// URL');
  const [, scheme, authority, rest] = match as unknown as [string, string, string, string];
  const at = authority.lastIndexOf('@');
  const userInfo = at < 0 ? '' : authority.slice(0, at);
  const hostPort = authority.slice(at + 1);
  // No host, and a port: the port alone.
  const bare = /^:(\d*)$/.exec(hostPort);
  const url = new URL(`${scheme}${bare ? '' : hostPort}${rest}`);
  const colon = userInfo.indexOf(':');
  return {
    url,
    user: decodeURIComponent(colon < 0 ? userInfo : userInfo.slice(0, colon)),
    password: colon >= 0 && colon < userInfo.length - 1,
    port: bare ? bare[1]! : url.port,
  };
}

/**
 * Reads the URL and finds the password; throws AddressError (a UsageError, exit 2) naming the problem, never the password.
 */
export function parseTarget(text: string, options: TargetOptions): PgTarget {
  const env = options.env;
  let parts: ReturnType<typeof readUrl>;
  try {
    parts = readUrl(text.trim());
  } catch {
    // The URL as given may hold a password: only its scheme is named.
    throw new AddressError(IN_URL, ': the postgres:// URL cannot be read (expected postgres://USER@HOST:PORT/DATABASE)');
  }
  const { url } = parts;
  if (parts.password) {
    throw new AddressError(
      IN_URL,
      ': the postgres:// URL holds a password, which would be seen in the process list and shell history; remove it, and set PGPASSWORD or a ~/.pgpass line',
    );
  }
  const params = url.searchParams;
  for (const key of params.keys()) {
    if (!KNOWN_PARAMS.has(key)) {
      throw new AddressError(IN_URL, `: the URL parameter '${key}' is not one swapx reads (${[...KNOWN_PARAMS].join(', ')})`);
    }
  }
  const hostParam = params.get('host') ?? undefined;
  const host = decodeURIComponent(url.hostname).replace(/^\[(.*)\]$/, '$1') || hostParam || env.PGHOST || 'localhost';
  const portText = parts.port || params.get('port') || env.PGPORT || String(DEFAULT_PORT);
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new AddressError(IN_URL, `: port '${portText}' is not a port number (1 to 65535)`);
  const user = parts.user || params.get('user') || env.PGUSER || os.userInfo().username;
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || params.get('dbname') || env.PGDATABASE || user;
  if (database.includes('/')) throw new AddressError(IN_URL, `: '${database}' is not a database name`);

  const sslText = params.get('sslmode') ?? env.PGSSLMODE ?? 'prefer';
  if (!(SSL_MODES as readonly string[]).includes(sslText)) throw new AddressError(IN_URL, `: sslmode '${sslText}' is not one of ${SSL_MODES.join(', ')}`);
  const sslMode = sslText as SslMode;
  const timeoutText = params.get('connect_timeout') ?? env.PGCONNECT_TIMEOUT ?? '10';
  const connectTimeout = Number(timeoutText);
  if (!Number.isInteger(connectTimeout) || connectTimeout < 0 || connectTimeout > 3600) {
    throw new AddressError(IN_URL, `: connect_timeout '${timeoutText}' is not a number of seconds (0 to 3600)`);
  }
  const optionsText = params.get('options') ?? env.PGOPTIONS;
  const settings =
    optionsText === undefined
      ? {}
      : parseServerOptions(optionsText, params.has('options') ? { kind: 'url-param', param: 'options' } : { kind: 'env', name: 'PGOPTIONS' });
  const home = env.HOME ?? os.homedir();
  let sslRootCert = params.get('sslrootcert') ?? env.PGSSLROOTCERT;
  if (sslRootCert === undefined && (sslMode === 'verify-ca' || sslMode === 'verify-full')) {
    const standard = path.join(home, '.postgresql', 'root.crt');
    if (fs.existsSync(standard)) sslRootCert = standard;
  }

  const fromUrl: { schema?: string; table?: string } = {
    schema: params.get('schema') ?? undefined,
    ...(params.get('table') === null ? {} : splitTable(params.get('table')!, { kind: 'url-param', param: 'table' })),
  };
  const fromFlag: { schema?: string; table?: string } = options.table === undefined ? {} : splitTable(options.table, { kind: 'table' });
  const schema = checkName(fromFlag.schema ?? fromUrl.schema ?? DEFAULT_SCHEMA, 'schema');
  const table = fromFlag.table ?? fromUrl.table ?? DEFAULT_TABLE;

  let password: string | undefined;
  let passwordFrom: string | undefined;
  let passwordFileIgnored: PgTarget['passwordFileIgnored'];
  if (env.PGPASSWORD !== undefined && env.PGPASSWORD !== '') {
    password = env.PGPASSWORD;
    passwordFrom = 'PGPASSWORD';
  } else {
    const file = env.PGPASSFILE || path.join(home, '.pgpass');
    const found = lookUpPassword(file, { host, port, database, user }, (mode) => {
      passwordFileIgnored = { file, mode };
    });
    if (found !== undefined) {
      password = found;
      passwordFrom = file;
    }
  }
  return {
    host,
    port,
    database,
    user,
    schema,
    table,
    sslMode,
    sslRootCert,
    connectTimeout,
    ...(Object.keys(settings).length > 0 ? { settings } : {}),
    password,
    passwordFrom,
    ...(passwordFileIgnored ? { passwordFileIgnored } : {}),
  };
}
