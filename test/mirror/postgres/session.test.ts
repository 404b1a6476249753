/**
 * The session's bounds (src/mirror/postgres/session.ts) against the real server: the timeouts it sets, and a server that
 * stops answering without closing the connection (a proxy in between that goes silent, as a host gone from the
 * network does): the operation fails once the answer is overdue, the socket is destroyed, and the session is not
 * used again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import net from 'node:net';
import { PostgresConnectionError } from '../../../src/mirror/postgres/errors.js';
import { configure, IDLE_IN_TRANSACTION_TIMEOUT_MS, LOCK_TIMEOUT_MS, Session, STATEMENT_TIMEOUT_MS } from '../../../src/mirror/postgres/session.js';
import { pgTarget, usePostgres } from '../../helpers/postgres.js';

const db = usePostgres();

/** A TCP proxy to the server whose `silent()` stops passing bytes either way, the sockets left open. */
async function silentProxy() {
  let silent = false;
  const sockets: net.Socket[] = [];
  const server = net.createServer((client) => {
    const upstream = net.connect(db.server.port, db.server.host);
    sockets.push(client, upstream);
    client.on('data', (data) => silent || upstream.write(data));
    upstream.on('data', (data) => silent || client.write(data));
    for (const socket of [client, upstream]) socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    silent: () => {
      silent = true;
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

let closeProxy: (() => void) | undefined;
afterEach(() => closeProxy?.());

describe('the session', () => {
  it('sets statement_timeout, lock_timeout and idle_in_transaction_session_timeout (and temp_buffers) on the connection', async () => {
    expect({ STATEMENT_TIMEOUT_MS, LOCK_TIMEOUT_MS, IDLE_IN_TRANSACTION_TIMEOUT_MS }).toEqual({
      STATEMENT_TIMEOUT_MS: 120_000,
      LOCK_TIMEOUT_MS: 10_000,
      IDLE_IN_TRANSACTION_TIMEOUT_MS: 60_000,
    });
    const session = await Session.open(pgTarget(db));
    try {
      const [row] = await session.run(async () => {
        await configure(session.db);
        return session.db`SELECT current_setting('statement_timeout') AS statement, current_setting('lock_timeout') AS lock,
          current_setting('idle_in_transaction_session_timeout') AS idle, current_setting('temp_buffers') AS temp`;
      });
      expect(row).toEqual({ statement: '2min', lock: '10s', idle: '1min', temp: '128MB' });
    } finally {
      await session.end();
    }
  });

  it('a server that stops answering: the operation fails once the answer is overdue, the socket is destroyed, the session is not used again', async () => {
    const proxy = await silentProxy();
    closeProxy = proxy.close;
    const session = await Session.open(pgTarget(db, { host: '127.0.0.1', port: proxy.port }), { answerLimitMs: 1_000 });
    try {
      expect(await session.run(() => session.db`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
      proxy.silent();
      const started = Date.now();
      const error = await session.run(() => session.db`SELECT 2`).catch((e: unknown) => e);
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(error).toBeInstanceOf(PostgresConnectionError);
      expect((error as Error).message).toBe(
        `Postgres at 127.0.0.1:${proxy.port} did not answer for 1 s: the server or the network is down; run again when it is up`,
      );
      expect(await session.run(() => session.db`SELECT 3`).catch((e: unknown) => e)).toBe(error);
    } finally {
      const ending = Date.now();
      await session.end();
      expect(Date.now() - ending).toBeLessThan(5_000);
    }
  });
});
