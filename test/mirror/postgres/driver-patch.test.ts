/**
 * The driver as installed carries swapx's fix (scripts/patch-postgres.js) of porsager/postgres issues 1154 and
 * 1208: a statement on a connection whose backend was terminated is rejected with CONNECTION_CLOSED. Unpatched, the
 * write was made from a timer after the socket was gone and threw there, where no caller can catch it: the process
 * died with a stack (vitest reports it as an unhandled error, failing this file).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { connect } from '../../../src/mirror/postgres/driver.js';
import { pgTarget, usePostgres } from '../../helpers/postgres.js';

const db = usePostgres();

const code = (error: unknown) => (error as { code?: unknown }).code;

describe('the patched driver', () => {
  it('is what is installed: both of its builds (the ES modules, and the CommonJS one the CLI bundle requires)', () => {
    const script = path.resolve(import.meta.dirname, '../../../scripts/patch-postgres.js');
    expect(execFileSync(process.execPath, [script, '--check'], { encoding: 'utf8' })).toBe('');
  });

  it('a transaction whose backend is terminated rejects, and so does its rollback: nothing is thrown from a timer', async () => {
    const sql = await connect(pgTarget(db));
    try {
      const failed = await sql
        .begin(async (tx) => {
          const [row] = await tx<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
          await db.admin`SELECT pg_terminate_backend(${row!.pid})`;
          // The next statement finds the connection gone; begin() then sends its ROLLBACK on it.
          await tx`SELECT pg_sleep(1)`;
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(code(failed)).toBe('CONNECTION_CLOSED');
      // The writes the driver scheduled run in the turns that follow.
      for (let i = 0; i < 5; i++) await nextTurn();
    } finally {
      await sql.end({ timeout: 1 });
    }
  });
});
