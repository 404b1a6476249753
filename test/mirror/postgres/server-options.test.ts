/**
 * Session settings as libpq takes them (the URL's options parameter, else PGOPTIONS): read, refused in one line when
 * they are not settings (exit 2), and applied over swapx's own bounds once the session is swapx's.
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/api/errors.js';
import { parseServerOptions } from '../../../src/mirror/postgres/server-options.js';
import { inUsersTerms } from '../../../src/commands/sync/errors.js';
import { configure, lockTimeoutText } from '../../../src/mirror/postgres/session.js';
import { parseTarget } from '../../../src/mirror/postgres/target.js';
import { usePostgres } from '../../helpers/postgres.js';

const db = usePostgres();
const PGOPTIONS = { kind: 'env', name: 'PGOPTIONS' } as const;
/** What `run` throws, as the user reads it: the shell names the part of the address as given (--out ?options=). */
async function said<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw inUsersTerms(error);
  }
}

describe('parseServerOptions', () => {
  it('-c name=value, -cname=value and --name-with-dashes=value; a space kept with a backslash', () => {
    expect(
      parseServerOptions('-c lock_timeout=2s  -cstatement_timeout=5min --idle-in-transaction-session-timeout=1-0 -c search_path=a\\ b', PGOPTIONS),
    ).toEqual({ lock_timeout: '2s', statement_timeout: '5min', idle_in_transaction_session_timeout: '1-0', search_path: 'a b' });
    expect(parseServerOptions('', PGOPTIONS)).toEqual({});
  });

  it.each(['lock_timeout=2s', '-c', '-c =1', '-v', '--=3'])('%s is refused in one line naming where it came from', async (text) => {
    await expect(said(() => parseServerOptions(text, { kind: 'url-param', param: 'options' }))).rejects.toThrow(
      new UsageError(`--out ?options=: '${text}' is not settings swapx reads: give -c name=value (e.g. -c lock_timeout=2s)`),
    );
  });

  it('the URL parameter wins over PGOPTIONS; neither leaves no settings', () => {
    const env = { PGOPTIONS: '-c lock_timeout=3s', PGPASSWORD: 'x' };
    expect(parseTarget('postgres://u@h/d?options=-c%20lock_timeout%3D1s', { env }).settings).toEqual({ lock_timeout: '1s' });
    expect(parseTarget('postgres://u@h/d', { env }).settings).toEqual({ lock_timeout: '3s' });
    expect(parseTarget('postgres://u@h/d', { env: {} }).settings).toBeUndefined();
    expect([lockTimeoutText({ settings: { lock_timeout: '1s' } }), lockTimeoutText({})]).toEqual(['1s', '10 s']);
  });
});

describe('configure', () => {
  it("sets swapx's bounds, the user's settings over them", async () => {
    const conn = db.sql;
    await conn.begin(async (tx) => {
      await configure(tx, { lock_timeout: '1500ms' });
      const [row] = await tx`SELECT current_setting('lock_timeout') AS lock, current_setting('statement_timeout') AS statement,
        current_setting('idle_in_transaction_session_timeout') AS idle`;
      expect(row).toEqual({ lock: '1500ms', statement: '2min', idle: '1min' });
    });
  });

  it('a setting the server does not know, or a value it refuses, is bad input (exit 2)', async () => {
    await expect(said(() => db.sql.begin((tx) => configure(tx, { no_such_setting: '1' })))).rejects.toThrow(
      /^--out: the setting in options or PGOPTIONS was refused \(unrecognized configuration parameter "no_such_setting"\)$/,
    );
    await expect(db.sql.begin((tx) => configure(tx, { lock_timeout: 'soon' }))).rejects.toBeInstanceOf(UsageError);
  });
});
