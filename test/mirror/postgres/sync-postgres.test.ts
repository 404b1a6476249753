/**
 * `swapx sync --out postgres://…` through the CLI's entry point, in process, against the sandbox and a real
 * PostgreSQL server: the table holds what the API serves, row for row, and what a folder mirror of the same clocks
 * holds; a second run changes no row; a catch-up days later brings every swap to its latest version; --follow;
 * the summary; every bad input and failure as one line with its exit code, the password in none of them.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { PostgresMirror } from '../../../src/mirror/postgres/mirror.js';
import { parseTarget } from '../../../src/mirror/postgres/target.js';
import { tempDir } from '../../helpers/cli.js';
import { CAUGHT_UP, useClockedSandbox } from '../../helpers/clocked-sandbox.js';
import { until } from '../../helpers/wait.js';
import { usePostgres } from '../../helpers/postgres.js';
import { Capture, runSwapx } from '../../helpers/run.js';
import { expectedRows, mirrorRows, stepLines } from '../../helpers/sync.js';
import { comparableSwap, tableSwaps } from '../../../scripts/support/comparable.js';

const db = usePostgres();
const data = { seed: 43, swapsPerHour: 90 };
const api = useClockedSandbox({ ...data, clock: CAUGHT_UP.clock1 });
const range = ['--since', CAUGHT_UP.since, '--until', CAUGHT_UP.until];

/** The CLI in process against the sandbox, with the test role's password in PGPASSWORD. */
const sync = (args: readonly string[], extra: Record<string, string> = {}) => runSwapx(['sync', ...args], { env: { ...api.env(), ...db.env, ...extra } });

let tables = 0;
const url = (table = `m${++tables}`) => `${db.url}?table=${table}`;

const apiRows = (clock: number) => expectedRows(data, CAUGHT_UP.since, CAUGHT_UP.until, clock).map(comparableSwap);

/** Tuple versions of every row: a run that rewrites no row leaves them all as they were. */
const versions = async (table: string) => db.sql.unsafe(`SELECT id, xmin::text AS xmin FROM ${table} ORDER BY id`);

describe('a mirror in Postgres', () => {
  it('holds the API row for row, as a folder mirror of the same clocks does; a second run changes no row; a catch-up days later brings every swap to its latest version', async () => {
    api.clock = CAUGHT_UP.clock1;
    const table = 'caught_up';
    const dir = path.join(tempDir('swapx-pg-folder-'), 'out');
    const first = await sync(['--out', url(table), ...range, '--summary-json']);
    expect(first.code, first.stderr).toBe(0);
    const expected1 = apiRows(CAUGHT_UP.clock1);
    expect(expected1.length).toBeGreaterThan(400);
    const [step] = stepLines(first);
    expect(step).toMatchObject({
      newSwaps: expected1.length,
      lateSwaps: 0,
      updatedSwaps: 0,
      outsideWindow: 0,
      cursor: CAUGHT_UP.until,
      parts: [`public.${table}`],
      complete: true,
    });
    expect(await tableSwaps(db.sql, table)).toEqual(expected1);
    expect((await sync(['--out', dir, ...range, '-q'])).code).toBe(0);
    expect(await tableSwaps(db.sql, table)).toEqual(mirrorRows(dir).map(comparableSwap));

    // Again at the same clock: nothing new, not a row rewritten.
    const before = await versions(table);
    const again = await sync(['--out', url(table), ...range, '--summary-json']);
    expect(again.code, again.stderr).toBe(0);
    expect(stepLines(again)[0]).toMatchObject({ newSwaps: 0, lateSwaps: 0, updatedSwaps: 0, parts: [] });
    expect(await versions(table)).toEqual(before);

    // Three days on: corrections of held swaps replace them; the folder mirror caught up the same way agrees.
    api.clock = CAUGHT_UP.clock2;
    const later = await sync(['--out', url(table), ...range, '--summary-json']);
    expect(later.code, later.stderr).toBe(0);
    const expected2 = apiRows(CAUGHT_UP.clock2);
    const changed = expected2.filter((row, i) => row.updatedAt !== expected1[i]!.updatedAt).length;
    expect(changed).toBeGreaterThan(20);
    expect(stepLines(later)[0]).toMatchObject({ newSwaps: 0, lateSwaps: 0, updatedSwaps: changed });
    expect(await tableSwaps(db.sql, table)).toEqual(expected2);
    expect((await sync(['--out', dir, ...range, '-q'])).code).toBe(0);
    expect(await tableSwaps(db.sql, table)).toEqual(mirrorRows(dir).map(comparableSwap));
    // The cursors are in swapx's own table, beside the rows.
    const [state] = await db.sql`SELECT completed_cursor, query->>'baseUrl' AS base FROM swapx_sync_state WHERE mirror = ${table}`;
    expect(state).toEqual({ completed_cursor: new Date(CAUGHT_UP.until), base: api.sandbox.url });
  });

  it('says what it did in one line, naming the table; postgresql:// and --table name it too', async () => {
    api.clock = CAUGHT_UP.clock1;
    const r = await sync(['--out', db.url.replace('postgres://', 'postgresql://'), '--table', 'public.by_flag', ...range]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /^Synced \d+ new, 0 late and 0 updated swaps into 1 table; cursor 2026-11-11T04:00:00Z, updates from \S+; \d+ windows, \d+ requests, 0 retries, \S+\n$/,
    );
    const [n] = await db.sql`SELECT count(*)::int AS n FROM public.by_flag`;
    expect(n!.n).toBe(apiRows(CAUGHT_UP.clock1).length);
  });

  it('-v says where it connects and where the password came from, never the password', async () => {
    api.clock = CAUGHT_UP.clock1;
    const r = await runSwapx(['sync', '--out', url(), ...range, '-v'], { env: { ...api.env(), ...db.env } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split('\n')[0]).toBe(
      `postgres: swapx_test@127.0.0.1:${db.server.port}/${db.database} public.m${tables}, sslmode prefer, password from PGPASSWORD`,
    );
    expect(r.stderr).not.toContain(db.server.password);
  });

  it('--follow keeps the table current, a step every interval, until the signal, then exits 0', async () => {
    api.clock = Date.now();
    const controller = new AbortController();
    const table = `m${++tables}`;
    const stderr = new Capture();
    const running = runSwapx(['sync', '--out', `${db.url}?table=${table}`, '--since', '30m', '--follow', '--interval', '1s', '--summary-json'], {
      env: { ...api.env(), ...db.env },
      signal: controller.signal,
      stderr,
    });
    // Two steps, then Ctrl-C (a loaded machine may take its time).
    await until(() => stepLines({ stderr: stderr.text }).length >= 2, 60_000, 'two steps');
    controller.abort();
    const r = await running;
    expect(r.code, r.stderr).toBe(0);
    const steps = stepLines(r);
    expect(steps.length, r.stderr).toBeGreaterThanOrEqual(2);
    expect(steps.every((line) => line.complete)).toBe(true);
    // The table holds what the API serves up to the last cursor.
    const [state] = await db.sql`SELECT since, completed_cursor FROM swapx_sync_state WHERE mirror = ${table}`;
    const held = await db.sql.unsafe(`SELECT count(*)::int AS n FROM ${table}`);
    const cursor = (state!.completed_cursor as Date).toISOString();
    expect(held).toEqual([{ n: expectedRows(data, (state!.since as Date).toISOString(), cursor, api.clock).length }]);
  }, 90_000);
});

describe('bad input and failures: one line, the documented exit code, nothing created', () => {
  const tableCount = async () => (await db.sql`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`)[0]!.n as number;

  it.each([
    [
      'a password in the URL',
      (u: string) => ['--out', u.replace('swapx_test@', 'swapx_test:hunter2-secret@'), ...range],
      2,
      'swapx: error: --out: the postgres:// URL holds a password, which would be seen in the process list and shell history; remove it, and set PGPASSWORD or a ~/.pgpass line\n',
    ],
    [
      '--format with a table',
      (u: string) => ['--out', u, '--format', 'csv', ...range],
      2,
      'swapx: error: --format applies to a folder mirror: a Postgres table keeps every field, each in a typed column\n',
    ],
    [
      '--fields with a table',
      (u: string) => ['--out', u, '--fields', 'id,completedAt,updatedAt', ...range],
      2,
      'swapx: error: --fields applies to a folder mirror: a Postgres table keeps every field, each in a typed column\n',
    ],
    [
      '--table with a folder',
      () => ['--out', path.join(tempDir(), 'out'), '--table', 'x', ...range],
      2,
      'swapx: error: --table applies to a postgres:// --out; a folder mirror has no table\n',
    ],
    [
      'a bad table name',
      (u: string) => ['--out', u, '--table', 'a;b', ...range],
      2,
      "swapx: error: --table 'a;b' is not a table name swapx uses: letters, digits and _ (not first a digit), at most 63\n",
    ],
    ['no --since on a first run', (u: string) => ['--out', `${u}?table=fresh`], 2, undefined],
  ])('%s', async (_name, args, code, stderr) => {
    const before = await tableCount();
    const r = await sync(args(db.url));
    expect(r.code).toBe(code);
    if (stderr !== undefined) expect(r.stderr).toBe(stderr);
    else
      expect(r.stderr).toMatch(/^swapx: error: swapx_test@127\.0\.0\.1:\d+\/\w+ public\.fresh has no sync state yet: the first run needs --since <time>.*\n$/);
    expect(r.stderr).not.toContain('hunter2');
    expect(await tableCount()).toBe(before);
  });

  it('a refused password (exit 3), a missing database (exit 2), an unreachable server (exit 1): one line each, no password', async () => {
    const wrong = await sync(['--out', url(), ...range], { PGPASSWORD: 'not-the-password' });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toBe(
      `swapx: error: Postgres at 127.0.0.1:${db.server.port} refused the login of user "swapx_test" (password authentication failed for user "swapx_test"); the password from PGPASSWORD was refused\n`,
    );
    expect(wrong.stderr).not.toContain('not-the-password');
    const missing = await sync(['--out', `postgres://swapx_test@127.0.0.1:${db.server.port}/nope`, ...range]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`swapx: error: Postgres at 127.0.0.1:${db.server.port} has no database "nope" (database "nope" does not exist)\n`);
    const down = await sync(['--out', 'postgres://swapx_test@127.0.0.1:1/x', ...range]);
    expect(down.code).toBe(1);
    expect(down.stderr).toBe('swapx: error: cannot reach Postgres at 127.0.0.1:1 (connection refused); run again when it is up\n');
    for (const r of [wrong, missing, down]) expect(r.stderr).not.toContain(db.server.password);
    // With --summary-json the failure is a JSON line, the password in none of it either.
    const json = await sync(['--out', url(), ...range, '--summary-json'], { PGPASSWORD: 'not-the-password' });
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stderr.trim())).toMatchObject({ event: 'sync-failed', exitCode: 3, error: 'PostgresLoginError' });
    expect(json.stderr).not.toContain('not-the-password');
  });

  it("a password file others may read: libpq's warning, then the refused login naming the file and its mode (exit 3)", async () => {
    const home = tempDir();
    const pgpass = path.join(home, '.pgpass');
    fs.writeFileSync(pgpass, `*:*:*:swapx_test:${db.server.password}\n`);
    fs.chmodSync(pgpass, 0o644);
    const run = (extra: string[]) => runSwapx(['sync', '--out', url(), ...range, ...extra], { env: { ...api.env(), HOME: home } });
    const warning = `WARNING: password file "${pgpass}" has group or world access; permissions should be u=rw (0600) or less`;
    const refusal = `Postgres at 127.0.0.1:${db.server.port} refused the login of user "swapx_test" (password authentication failed for user "swapx_test"); no password was found: the password file ${pgpass} was not read, as its mode 0644 lets group or others read it (libpq ignores it too): chmod 600 ${pgpass}`;
    const plain = await run([]);
    expect(plain.code).toBe(3);
    expect(plain.stderr).toBe(`${warning}\nswapx: error: ${refusal}\n`);
    const json = await run(['--summary-json']);
    expect(json.code).toBe(3);
    expect(
      json.stderr
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    ).toEqual([
      { event: 'sync-warning', time: expect.any(String), message: warning },
      { event: 'sync-failed', time: expect.any(String), exitCode: 3, error: 'PostgresLoginError', message: refusal },
    ]);
    expect(json.stderr).not.toContain(db.server.password);
    // Made private, the file is read and the sync runs, with no warning.
    fs.chmodSync(pgpass, 0o600);
    const fixed = await run(['-q']);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stderr).toBe('');
  });

  it('the Unix-socket URLs psql takes reach the server over its socket', async () => {
    api.clock = CAUGHT_UP.clock1;
    const { socketDir, port } = db.server;
    const dir = encodeURIComponent(socketDir);
    const forms = [
      `postgres://swapx_test@/${db.database}?host=${socketDir}&port=${port}&table=socket_a`,
      `postgres:///${db.database}?host=${dir}&port=${port}&user=swapx_test&table=socket_b`,
      `postgres://swapx_test@${dir}:${port}/${db.database}?table=socket_c`,
    ];
    const count = apiRows(CAUGHT_UP.clock1).length;
    for (const [i, form] of forms.entries()) {
      // No password: the socket's logins are trusted on the test server.
      const r = await runSwapx(['sync', '--out', form, ...range, ...(i === 0 ? ['-v'] : ['-q'])], { env: { ...api.env(), HOME: tempDir() } });
      expect(r.code, r.stderr).toBe(0);
      if (i === 0) {
        expect(r.stderr.split('\n')[0]).toBe(
          `postgres: swapx_test@${socketDir} (socket, port ${port})/${db.database} public.socket_a, sslmode prefer, no password`,
        );
      }
      const [held] = await db.sql.unsafe(`SELECT count(*)::int AS n FROM socket_${'abc'[i]}`);
      expect(held).toEqual({ n: count });
    }
  });

  it('with --summary-json, "error" tells a server that is down from a TLS failure and from a statement that failed', async () => {
    const failed = async (args: string[]) => {
      const r = await sync([...args, ...range, '--summary-json']);
      // JSON lines throughout, the failure the last (a table of another swapx is noted first).
      const lines = r.stderr
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(
        lines.slice(0, -1).every((line) => line.event === 'sync-warning'),
        r.stderr,
      ).toBe(true);
      const { event, exitCode, error, message } = lines.at(-1)!;
      return { code: r.code, event, exitCode, error, message };
    };
    expect(await failed(['--out', 'postgres://swapx_test@127.0.0.1:1/x'])).toEqual({
      code: 1,
      event: 'sync-failed',
      exitCode: 1,
      error: 'PostgresConnectionError',
      message: 'cannot reach Postgres at 127.0.0.1:1 (connection refused); run again when it is up',
    });
    expect(await failed(['--out', `${url()}&sslmode=verify-full`])).toMatchObject({ code: 1, exitCode: 1, error: 'PostgresTlsError' });
    // Rows the table refuses: the commit's statement fails, with its SQLSTATE.
    await db.sql`CREATE TABLE refusing (_swapx_key text PRIMARY KEY, completed_at timestamptz CHECK (completed_at < '2000-01-01'))`;
    expect(await failed(['--out', url('refusing')])).toMatchObject({
      code: 1,
      exitCode: 1,
      error: 'PostgresStatementError',
      message: expect.stringMatching(
        /^Postgres at 127\.0\.0\.1:\d+: write public\.refusing failed \(new row for relation "refusing" violates check constraint "refusing_completed_at_check", SQLSTATE 23514\)$/,
      ),
    });
  });

  it('a table of another shape (exit 2), left as it is', async () => {
    await db.sql`CREATE TABLE other_shape (id integer PRIMARY KEY, note text)`;
    await db.sql`INSERT INTO other_shape VALUES (1, 'mine')`;
    const r = await sync(['--out', url('other_shape'), ...range]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'swapx: error: public.other_shape exists but is not a swaps mirror swapx can write (column id is integer, swapx writes text); it was left as it is: name another table with --table\n',
    );
    expect(await db.sql`SELECT * FROM other_shape`).toEqual([{ id: 1, note: 'mine' }]);
  });

  it('a second sync of the table exits 1 at once, naming who holds it', async () => {
    const table = `m${++tables}`;
    const holder = await PostgresMirror.open(parseTarget(db.url, { env: db.env, table }), { version: 'test' });
    try {
      const started = Date.now();
      const r = await sync(['--out', url(table), ...range]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        new RegExp(
          `^swapx: error: swapx_test@127\\.0\\.0\\.1:${db.server.port}/${db.database} public\\.${table} is being written by another swapx sync \\(Postgres backend \\d+ from 127\\.0\\.0\\.1, connected since \\S+\\); this run stopped\\n$`,
        ),
      );
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await holder.close();
    }
  });

  it('a first run whose windows fail leaves nothing behind: the tables it made are dropped, its state row removed (exit 1)', async () => {
    // One mirror exists, so the state table stays; the new mirror's table and state row go.
    const kept = await sync(['--out', url('kept_mirror'), ...range, '-q']);
    expect(kept.code, kept.stderr).toBe(0);
    const before = await tableCount();
    const r = await sync(['--out', url('failed_first'), ...range, '--retries', '0'], { SWAPX_BASE_URL: 'http://127.0.0.1:1' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /\nswapx: error: window 2026-11-10T20:00:00Z → 2026-11-10T20:30:00Z failed: connection to 127\.0\.0\.1:1 failed: connection refused; synced up to 2026-11-10T20:00:00Z; run again to continue\n$/,
    );
    expect(await tableCount()).toBe(before);
    expect(await db.sql`SELECT mirror FROM swapx_sync_state ORDER BY mirror`).not.toContainEqual({ mirror: 'failed_first' });
  });

  it('a first run whose API credentials are refused creates nothing in the database (exit 3)', async () => {
    const before = await tableCount();
    const r = await sync(['--out', url('never'), ...range], { SWAPX_API_KEY: 'wrong' });
    expect(r.code).toBe(3);
    expect(await tableCount()).toBe(before);
  });
});
