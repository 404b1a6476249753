/**
 * Where a Postgres mirror lives (src/mirror/postgres/target.ts), read as libpq reads a URL: each part from the URL, else its
 * parameter, else the environment, else the default; the values refused, each with its message; the password from
 * PGPASSWORD or the password file; the CA file of the verifying modes; and the names shown for a target.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DEFAULT_PORT,
  DEFAULT_SCHEMA,
  DEFAULT_TABLE,
  describeTarget,
  hostPort,
  parseTarget,
  qualifiedName,
  SSL_MODES,
} from '../../../src/mirror/postgres/target.js';
import { tempDir } from '../../helpers/cli.js';
import { isPostgresUrl } from '../../../src/commands/sync/open-mirror.js';
import { inUsersTerms } from '../../../src/commands/sync/errors.js';

/** An environment with a HOME of its own (no password file, no CA file) and `extra`. */
const env = (extra: Record<string, string> = {}) => ({ HOME: tempDir(), ...extra });
const parse = (url: string, extra: Record<string, string> = {}, table?: string) =>
  parseTarget(url, { env: env(extra), ...(table === undefined ? {} : { table }) });
const refused = (url: string, extra: Record<string, string> = {}, table?: string) => {
  try {
    parse(url, extra, table);
  } catch (error) {
    // As the user reads it: the shell names the part of the address as given (--out, --table).
    const said = inUsersTerms(error) as Error;
    return `${said.constructor.name}: ${said.message}`;
  }
  throw new Error('accepted');
};

describe('isPostgresUrl', () => {
  it('postgres:// and postgresql://, in any case, around spaces; nothing else', () => {
    expect(isPostgresUrl('postgres://h/d')).toBe(true);
    expect(isPostgresUrl('postgresql://h/d')).toBe(true);
    expect(isPostgresUrl('  PostgreSQL://h/d ')).toBe(true);
    expect(isPostgresUrl('POSTGRES://h')).toBe(true);
    expect(isPostgresUrl('postgres:/h/d')).toBe(false);
    expect(isPostgresUrl('postgresq://h/d')).toBe(false);
    expect(isPostgresUrl('./postgres://h')).toBe(false);
    expect(isPostgresUrl('mysql://h/d')).toBe(false);
    expect(isPostgresUrl('out/postgres')).toBe(false);
  });
});

describe('names of a target', () => {
  const t = { host: 'db.example', port: 5433, database: 'prod', user: 'bob', schema: 'bi', table: 'swaps' };
  it('user@host:port/database schema.table; a socket directory and an IPv6 address written so', () => {
    expect(describeTarget(t)).toBe('bob@db.example:5433/prod bi.swaps');
    expect(hostPort({ host: '/run/postgresql', port: 5432 })).toBe('/run/postgresql (socket, port 5432)');
    expect(hostPort({ host: '::1', port: 5432 })).toBe('[::1]:5432');
    expect(hostPort({ host: '10.0.0.5', port: 6000 })).toBe('10.0.0.5:6000');
    expect(qualifiedName(t)).toBe('bi.swaps');
    expect([DEFAULT_TABLE, DEFAULT_SCHEMA, DEFAULT_PORT]).toEqual(['xflow_swaps', 'public', 5432]);
    expect(SSL_MODES).toEqual(['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full']);
  });
});

describe('parseTarget', () => {
  it('everything from the URL', () => {
    expect(parse('postgresql://bi%40corp@db.example:6543/ware%20house?sslmode=verify-ca&sslrootcert=/ca.pem&connect_timeout=0&schema=an&table=sw')).toEqual({
      host: 'db.example',
      port: 6543,
      database: 'ware house',
      user: 'bi@corp',
      schema: 'an',
      table: 'sw',
      sslMode: 'verify-ca',
      sslRootCert: '/ca.pem',
      connectTimeout: 0,
      password: undefined,
      passwordFrom: undefined,
    });
  });

  it('else from its parameters', () => {
    expect(parse('postgres://?host=/run/pg&port=6000&user=carol&dbname=stats')).toMatchObject({
      host: '/run/pg',
      port: 6000,
      user: 'carol',
      database: 'stats',
    });
    // A parameter gives way to the URL's own part.
    expect(parse('postgres://u@h:7000/d?host=other&port=6000&user=carol&dbname=stats')).toMatchObject({ host: 'h', port: 7000, user: 'u', database: 'd' });
  });

  it('else from the environment, as libpq reads it', () => {
    const fromEnv = {
      PGHOST: 'envhost',
      PGPORT: '6001',
      PGUSER: 'dave',
      PGDATABASE: 'envdb',
      PGSSLMODE: 'require',
      PGCONNECT_TIMEOUT: '3',
      PGSSLROOTCERT: '/env-ca.pem',
    };
    expect(parse('postgres://', fromEnv)).toMatchObject({
      host: 'envhost',
      port: 6001,
      user: 'dave',
      database: 'envdb',
      sslMode: 'require',
      connectTimeout: 3,
      sslRootCert: '/env-ca.pem',
    });
    // The URL's parameters win over the environment.
    expect(parse('postgres://?host=h&port=7&user=u&dbname=d&sslmode=disable&connect_timeout=4&sslrootcert=/p.pem', fromEnv)).toMatchObject({
      host: 'h',
      port: 7,
      user: 'u',
      database: 'd',
      sslMode: 'disable',
      connectTimeout: 4,
      sslRootCert: '/p.pem',
    });
  });

  it('else the defaults: localhost, 5432, the login name, a database named as the user, prefer, 10 s', () => {
    const me = os.userInfo().username;
    expect(parse('postgres://')).toEqual({
      host: 'localhost',
      port: 5432,
      database: me,
      user: me,
      schema: 'public',
      table: 'xflow_swaps',
      sslMode: 'prefer',
      sslRootCert: undefined,
      connectTimeout: 10,
      password: undefined,
      passwordFrom: undefined,
    });
    expect(parse('postgres://erin@h')).toMatchObject({ user: 'erin', database: 'erin' });
  });

  it('the Unix-socket URLs psql takes: no host after the user, no host at all, a port alone; ?host= names the directory', () => {
    expect(parse('postgres://user@/db?host=/var/run/postgresql')).toMatchObject({ host: '/var/run/postgresql', user: 'user', database: 'db', port: 5432 });
    expect(parse('postgresql://user@/db?host=%2Fvar%2Frun%2Fpostgresql')).toMatchObject({ host: '/var/run/postgresql', user: 'user', database: 'db' });
    expect(parse('postgres:///db?host=/tmp')).toMatchObject({ host: '/tmp', database: 'db', port: 5432 });
    expect(parse('postgres://user@:5433/db?host=/tmp')).toMatchObject({ host: '/tmp', user: 'user', port: 5433, database: 'db' });
    expect(parse('postgres://:5433/db?host=/tmp')).toMatchObject({ host: '/tmp', port: 5433 });
    expect(parse('postgres://user@/db?host=/tmp&port=6000')).toMatchObject({ host: '/tmp', port: 6000 });
    expect(parse('postgres://%2Fvar%2Frun%2Fpostgresql/db')).toMatchObject({ host: '/var/run/postgresql', database: 'db' });
    expect(parse('postgres://user@%2Fvar%2Frun%2Fpostgresql:5433/db')).toMatchObject({ host: '/var/run/postgresql', user: 'user', port: 5433 });
    // No host anywhere: PGHOST, else localhost.
    expect(parse('postgres://user@/db', { PGHOST: '/run/pg' })).toMatchObject({ host: '/run/pg', user: 'user' });
    expect(parse('postgres://user@/db')).toMatchObject({ host: 'localhost' });
    // An '@' in the user, percent-encoded, and one that ends the user info.
    expect(parse('postgres://bi%40corp@/db?host=/tmp')).toMatchObject({ user: 'bi@corp', host: '/tmp' });
  });

  it('a password is refused, never echoed, in those forms too; an empty one is no password', () => {
    for (const url of [
      'postgres://user:hunter2@/db?host=/tmp',
      'postgres://:hunter2@/db?host=/tmp',
      'postgres://user:hunter2@:5433/db',
      'postgres://u:p@ss@h/d',
    ]) {
      const got = refused(url);
      expect(got).toBe(
        'UsageError: --out: the postgres:// URL holds a password, which would be seen in the process list and shell history; remove it, and set PGPASSWORD or a ~/.pgpass line',
      );
      expect(got).not.toContain('hunter2');
    }
    expect(parse('postgres://user:@h/db')).toMatchObject({ user: 'user', password: undefined });
    expect(refused('postgres://user@:x/db')).toBe('UsageError: --out: the postgres:// URL cannot be read (expected postgres://USER@HOST:PORT/DATABASE)');
    expect(refused('postgres://us%ZZer@h/db')).toBe('UsageError: --out: the postgres:// URL cannot be read (expected postgres://USER@HOST:PORT/DATABASE)');
  });

  it('a password file that group or others may read is not read, and the target says which and its mode', () => {
    const home = tempDir();
    const pgpass = path.join(home, '.pgpass');
    fs.writeFileSync(pgpass, '*:*:*:*:secret\n');
    fs.chmodSync(pgpass, 0o644);
    expect(parseTarget('postgres://u@h/d', { env: { HOME: home } })).toMatchObject({
      password: undefined,
      passwordFrom: undefined,
      passwordFileIgnored: { file: pgpass, mode: 0o644 },
    });
    // PGPASSWORD given: the file is not looked at.
    expect(parseTarget('postgres://u@h/d', { env: { HOME: home, PGPASSWORD: 'x' } }).passwordFileIgnored).toBeUndefined();
    fs.chmodSync(pgpass, 0o600);
    expect(parseTarget('postgres://u@h/d', { env: { HOME: home } })).toMatchObject({ password: 'secret', passwordFrom: pgpass });
    expect('passwordFileIgnored' in parseTarget('postgres://u@h/d', { env: { HOME: home } })).toBe(false);
  });

  it('a host given percent-encoded is decoded (a socket directory); an IPv6 address loses its brackets; spaces around are ignored', () => {
    expect(parse('postgres://u@%2Frun%2Fpostgresql/d')).toMatchObject({ host: '/run/postgresql' });
    expect(parse('postgres://u@[2001:db8::1]:7000/d')).toMatchObject({ host: '2001:db8::1', port: 7000 });
    // Only brackets around the whole host are an address's.
    expect(parse('postgres://u@a%5Bb%5D/d').host).toBe('a[b]');
    expect(parse('postgres://u@%5Ba%5Db/d').host).toBe('[a]b');
    expect(parse('\u00a0 postgres://u@h/d \u00a0')).toMatchObject({ host: 'h', database: 'd' });
  });

  it.each([
    ['postgres://u@h:0/d', "--out: port '0' is not a port number (1 to 65535)"],
    ['postgres://u@h/d?port=65536', "--out: port '65536' is not a port number (1 to 65535)"],
    ['postgres://u@h/d?port=1.5', "--out: port '1.5' is not a port number (1 to 65535)"],
    ['postgres://u@h/d?port=x', "--out: port 'x' is not a port number (1 to 65535)"],
    ['postgres://u@h/a/b', "--out: 'a/b' is not a database name"],
    ['postgres://u@h/d?connect_timeout=3601', "--out: connect_timeout '3601' is not a number of seconds (0 to 3600)"],
    ['postgres://u@h/d?connect_timeout=1.5', "--out: connect_timeout '1.5' is not a number of seconds (0 to 3600)"],
    ['postgres://u@h/d?connect_timeout=-1', "--out: connect_timeout '-1' is not a number of seconds (0 to 3600)"],
    ['postgres://u@h/d?sslmode=', "--out: sslmode '' is not one of disable, allow, prefer, require, verify-ca, verify-full"],
    [
      'postgres://u@h/d?secret=x',
      "--out: the URL parameter 'secret' is not one swapx reads (sslmode, sslrootcert, connect_timeout, options, table, schema, host, port, user, dbname)",
    ],
    ['postgres://u@h/d?table=', "--out ?table= '' is not a table name swapx uses: letters, digits and _ (not first a digit), at most 63"],
    ['postgres://u@h/d?table=a.b.c', "--out ?table= 'a.b.c' is not a table name: give name or schema.name"],
    ['postgres://u@h/d?table=1a.b', "--out ?table= '1a' is not a table name swapx uses: letters, digits and _ (not first a digit), at most 63"],
    ['postgres://u@h/d?table=a.b-c', "--out ?table= 'b-c' is not a table name swapx uses: letters, digits and _ (not first a digit), at most 63"],
    ['postgres://u@h/d?schema=', "schema '' is not a table name swapx uses: letters, digits and _ (not first a digit), at most 63"],
    ['postgres://u@h/d?schema=$a', "schema '$a' is not a table name swapx uses: letters, digits and _ (not first a digit), at most 63"],
    [
      `postgres://u@h/d?schema=a${'b'.repeat(63)}`,
      `schema 'a${'b'.repeat(63)}' is not a table name swapx uses: letters, digits and _ (not first a digit), at most 63`,
    ],
    ['postgres://u@h/d?schema=x y', "schema 'x y' is not a table name swapx uses: letters, digits and _ (not first a digit), at most 63"],
    ['postgres://u@h/d?schema=ok-', "schema 'ok-' is not a table name swapx uses: letters, digits and _ (not first a digit), at most 63"],
    ['postgres://u@h/d?schema=-ok', "schema '-ok' is not a table name swapx uses: letters, digits and _ (not first a digit), at most 63"],
    ['postgres://u:pw@h/d', 'UsageError'],
    ['not a url', 'UsageError'],
  ])('%s is refused: %s', (url, message) => {
    const got = refused(url);
    expect(message.startsWith('UsageError') ? got.split(':')[0] : got).toBe(message.startsWith('UsageError') ? 'UsageError' : `UsageError: ${message}`);
  });

  it('the URL that cannot be read, and one with a password, are refused without quoting them', () => {
    expect(refused('postgres://u@[bad/d')).toBe('UsageError: --out: the postgres:// URL cannot be read (expected postgres://USER@HOST:PORT/DATABASE)');
    expect(refused('postgres://u:hunter2@h/d')).toBe(
      'UsageError: --out: the postgres:// URL holds a password, which would be seen in the process list and shell history; remove it, and set PGPASSWORD or a ~/.pgpass line',
    );
  });

  it('the edges: ports 1 and 65535, timeouts 0 and 3600, a name of 63 characters with $ and digits', () => {
    expect(parse('postgres://u@h:1/d').port).toBe(1);
    expect(parse('postgres://u@h/d?port=65535').port).toBe(65535);
    expect(parse('postgres://u@h/d?connect_timeout=3600').connectTimeout).toBe(3600);
    const name = `_a$1${'z'.repeat(59)}`;
    expect(parse(`postgres://u@h/d?schema=${encodeURIComponent(name)}&table=Z9`)).toMatchObject({ schema: name, table: 'Z9' });
    expect(parse('postgres://u@h/d?table=s.t')).toMatchObject({ schema: 's', table: 't' });
  });

  it('--table wins over the URL, in its name or schema.name; the URL names the schema otherwise', () => {
    expect(parse('postgres://u@h/d?schema=a&table=b', {}, 'c')).toMatchObject({ schema: 'a', table: 'c' });
    expect(parse('postgres://u@h/d?table=a.b', {}, 'x.y')).toMatchObject({ schema: 'x', table: 'y' });
    expect(parse('postgres://u@h/d', {}, 'x.y')).toMatchObject({ schema: 'x', table: 'y' });
    expect(refused('postgres://u@h/d', {}, 'x.y.z')).toBe("UsageError: --table 'x.y.z' is not a table name: give name or schema.name");
    expect(refused('postgres://u@h/d', {}, 'x.9')).toBe(
      "UsageError: --table '9' is not a table name swapx uses: letters, digits and _ (not first a digit), at most 63",
    );
  });

  it('verify-ca and verify-full find the CA in ~/.postgresql/root.crt when none is named; other modes do not look', () => {
    const home = tempDir();
    const url = 'postgres://u@h/d';
    expect(parseTarget(`${url}?sslmode=verify-ca`, { env: { HOME: home } }).sslRootCert).toBeUndefined();
    fs.mkdirSync(path.join(home, '.postgresql'));
    const standard = path.join(home, '.postgresql', 'root.crt');
    fs.writeFileSync(standard, 'ca');
    expect(parseTarget(`${url}?sslmode=verify-ca`, { env: { HOME: home } }).sslRootCert).toBe(standard);
    expect(parseTarget(`${url}?sslmode=verify-full`, { env: { HOME: home } }).sslRootCert).toBe(standard);
    expect(parseTarget(`${url}?sslmode=require`, { env: { HOME: home } }).sslRootCert).toBeUndefined();
    expect(parseTarget(`${url}?sslmode=verify-full&sslrootcert=/named.pem`, { env: { HOME: home } }).sslRootCert).toBe('/named.pem');
  });

  it('the password: PGPASSWORD unless empty, else the password file (PGPASSFILE, else ~/.pgpass), for this host, port, database and user', () => {
    const home = tempDir();
    const url = 'postgres://bob@db.example:5433/prod';
    expect(parseTarget(url, { env: { HOME: home, PGPASSWORD: 'secret' } })).toMatchObject({ password: 'secret', passwordFrom: 'PGPASSWORD' });
    const pgpass = path.join(home, '.pgpass');
    fs.writeFileSync(pgpass, 'db.example:5433:prod:bob:from-file\n*:*:*:*:other\n', { mode: 0o600 });
    expect(parseTarget(url, { env: { HOME: home, PGPASSWORD: '' } })).toMatchObject({ password: 'from-file', passwordFrom: pgpass });
    expect(parseTarget('postgres://bob@db.example:5432/prod', { env: { HOME: home } })).toMatchObject({ password: 'other', passwordFrom: pgpass });
    const other = path.join(tempDir(), 'pass');
    fs.writeFileSync(other, 'db.example:5433:prod:bob:named\n', { mode: 0o600 });
    expect(parseTarget(url, { env: { HOME: home, PGPASSFILE: other } })).toMatchObject({ password: 'named', passwordFrom: other });
    expect(parseTarget(url, { env: { HOME: home, PGPASSFILE: '' } })).toMatchObject({ password: 'from-file', passwordFrom: pgpass });
    expect(parseTarget('postgres://carol@db.example:5433/prod', { env: { HOME: home, PGPASSFILE: other } })).toMatchObject({
      password: undefined,
      passwordFrom: undefined,
    });
  });

  it('without HOME, the password file and the CA are looked for in the home directory', () => {
    const home = os.homedir();
    const t = parseTarget('postgres://nobody-here@h/d?sslmode=verify-full', { env: { PGPASSFILE: path.join(tempDir(), 'none') } });
    const standard = path.join(home, '.postgresql', 'root.crt');
    expect(t.sslRootCert).toBe(fs.existsSync(standard) ? standard : undefined);
    const pgpass = path.join(home, '.pgpass');
    if (!fs.existsSync(pgpass)) {
      fs.writeFileSync(pgpass, 'h:5432:d:nobody-here:home-file\n', { mode: 0o600 });
      try {
        expect(parseTarget('postgres://nobody-here@h/d', { env: {} })).toMatchObject({ password: 'home-file', passwordFrom: pgpass });
      } finally {
        fs.rmSync(pgpass);
      }
    }
  });
});
