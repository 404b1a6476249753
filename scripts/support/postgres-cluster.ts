/**
 * A real PostgreSQL server for a test run (test/helpers/postgres-setup.ts), a bench or a chaos run: a new
 * cluster in a temporary folder (initdb), on a free loopback port, with fsync off, TLS on
 * (a self-signed certificate for localhost and 127.0.0.1), a Unix socket in the
 * same folder for the harness's superuser, and password logins over TCP. It is
 * stopped and removed after the run. The server refuses to run as root: as root,
 * every server command runs as the `postgres` user (runuser), which owns the folder.
 * A server that cannot start fails the run: a Postgres test is never skipped.
 * It starts in the background: the run's files begin meanwhile, and a Postgres test waits for it
 * (test/helpers/postgres.ts); a run with no Postgres test stops the start rather than wait for it.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { freePort } from './free-port.js';
import { runProgram } from './run-program.js';

export interface PostgresServer {
  host: string;
  port: number;
  /** the folder of the Unix socket: the superuser `postgres` logs in there without a password */
  socketDir: string;
  /** a login role with a password (over TCP), owner of each test's database */
  user: string;
  password: string;
  /** the server certificate (self-signed), to give as sslrootcert */
  certFile: string;
  binDir: string;
}

function binDir(): string {
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    if (fs.existsSync(path.join(dir, 'initdb'))) return dir;
  } catch {
    // pg_config may be libpq's alone (no server): look where Debian puts the server.
  }
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const dir = path.join(root, version, 'bin');
    if (fs.existsSync(path.join(dir, 'initdb'))) return dir;
  }
  throw new Error("no PostgreSQL server found (initdb): install Debian's postgresql package (.ci/run does)");
}

const asRoot = process.getuid?.() === 0;

/** A server program's command line, as the postgres user when we are root. */
function asServer(bin: string, args: string[]): [string, string[]] {
  return asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
}

/** Runs a server program; not blocking: the run's start goes on meanwhile. */
function server(bin: string, args: string[], signal?: AbortSignal): Promise<void> {
  return runProgram(...asServer(bin, args), { signal, name: path.basename(bin) });
}

/** The same, blocking: for the stop at the end of the run. */
function serverSync(bin: string, args: string[]): void {
  const result = spawnSync(...asServer(bin, args), { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${path.basename(bin)} failed (${result.status}): ${result.stderr || result.stdout}`);
}

/** The superuser's connection to `database`, over the cluster's Unix socket (no password): tests, the bench and chaos. */
export function adminConnection(server: PostgresServer, database = 'postgres'): postgres.Sql {
  const options = { onnotice: () => {}, max: 4, fetch_types: true, connection: { application_name: 'swapx tests' } };
  return postgres({ ...options, path: `${server.socketDir}/.s.PGSQL.${server.port}`, port: server.port, user: 'postgres', database });
}

/**
 * The server outlives a process killed before its teardown (a test runner Stryker kills on a timeout, a run
 * interrupted): a watchdog, outside this process's tree so that a kill of the tree spares it, stops the server
 * and removes its folder once this process is gone. After a teardown it finds the folder gone, and ends.
 */
function watchOwner(dir: string, stop: string[]): void {
  const script =
    'owner=$1; dir=$2; shift 2; ( while kill -0 "$owner" 2>/dev/null && [ -d "$dir" ]; do sleep 1; done; ' +
    'if [ -d "$dir" ]; then "$@"; rm -rf "$dir"; fi ) >/dev/null 2>&1 </dev/null &';
  spawn('sh', ['-c', script, 'swapx-pg-watchdog', String(process.pid), dir, ...stop], { detached: true, stdio: 'ignore' }).unref();
}

/**
 * Starts a new cluster; `stop` stops it and removes its folder. Throws when the server cannot start, or when
 * `signal` aborts the start, having stopped what it started and removed the folder.
 */
export async function startCluster(signal?: AbortSignal): Promise<{ server: PostgresServer; stop: () => void }> {
  const bin = binDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapx-pg-'));
  const stopArgs = ['-D', path.join(dir, 'data'), '-m', 'immediate', '-w', 'stop'];
  const stop = () => {
    try {
      serverSync(path.join(bin, 'pg_ctl'), stopArgs);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    return { server: await newCluster(bin, dir, signal), stop };
  } catch (error) {
    try {
      stop();
    } catch {
      // pg_ctl may have started the server before the start failed or was stopped; a stop that finds none fails.
    }
    throw error;
  }
}

/** A new cluster in `dir`, started: initdb, a TLS certificate, the server on a free port, the test role. */
async function newCluster(bin: string, dir: string, signal?: AbortSignal): Promise<PostgresServer> {
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  fs.chmodSync(dir, 0o700);
  const data = path.join(dir, 'data');
  const password = randomBytes(12).toString('hex');
  const pwfile = path.join(dir, 'pw');
  fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (asRoot) execFileSync('chown', ['postgres:postgres', pwfile]);
  // TLS: a self-signed certificate for the names tests connect to, made while initdb runs (initdb wants an empty
  // folder: the key and certificate are copied into it after).
  const certFile = path.join(dir, 'server.crt');
  const keyFile = path.join(dir, 'server.key');
  const openssl = ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=localhost'];
  await Promise.all([
    server(
      path.join(bin, 'initdb'),
      ['-D', data, '-U', 'postgres', '--auth-local=trust', '--auth-host=scram-sha-256', '--no-sync', '-E', 'UTF8', '--locale=C', '--pwfile', pwfile],
      signal,
    ),
    runProgram('openssl', [...openssl, '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', keyFile, '-out', certFile], { signal }),
  ]);
  fs.chmodSync(certFile, 0o644);
  for (const file of [keyFile, certFile]) {
    const copy = path.join(data, path.basename(file));
    fs.copyFileSync(file, copy);
    fs.chmodSync(copy, 0o600);
    if (asRoot) execFileSync('chown', ['postgres:postgres', copy]);
  }

  let port = 0;
  let started = false;
  let lastError: unknown;
  // A port found free may be taken before the server binds it (others run tests too): another is tried.
  for (let attempt = 0; attempt < 5 && !started; attempt++) {
    port = await freePort();
    try {
      await server(
        path.join(bin, 'pg_ctl'),
        [
          '-D',
          data,
          '-l',
          path.join(dir, 'log'),
          '-w',
          '-t',
          '30',
          'start',
          '-o',
          [
            `-p ${port}`,
            '-c listen_addresses=127.0.0.1',
            `-c unix_socket_directories=${dir}`,
            '-c fsync=off',
            '-c synchronous_commit=off',
            '-c full_page_writes=off',
            '-c ssl=on',
            '-c max_connections=200',
            '-c shared_buffers=64MB',
          ].join(' '),
        ],
        signal,
      );
      started = true;
    } catch (error) {
      lastError = error;
    }
  }
  if (!started) {
    const log = fs.existsSync(path.join(dir, 'log')) ? fs.readFileSync(path.join(dir, 'log'), 'utf8') : '';
    throw new Error(`the PostgreSQL test server did not start: ${String(lastError)}\n${log}`);
  }
  watchOwner(dir, asServer(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']).flat());
  const user = 'swapx_test';
  await runProgram(
    path.join(bin, 'psql'),
    [
      '-h',
      dir,
      '-p',
      String(port),
      '-U',
      'postgres',
      '-d',
      'postgres',
      '-v',
      'ON_ERROR_STOP=1',
      '-qAtc',
      `CREATE ROLE ${user} LOGIN CREATEDB PASSWORD '${password}'`,
    ],
    { signal },
  );
  return { host: '127.0.0.1', port, socketDir: dir, user, password, certFile, binDir: bin };
}
