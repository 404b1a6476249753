/**
 * The mirror's session with Postgres, every wait on it bounded:
 *
 * - connecting: connect_timeout (the URL's, 10 s unless given; the driver's timer);
 * - a statement: statement_timeout; a wait for a lock another session holds: lock_timeout (the holder is then named:
 *   lock.ts); a transaction left open by a process that stopped (SIGSTOP, a frozen VM):
 *   idle_in_transaction_session_timeout. The server ends each, and says so;
 * - a server that stops answering without closing the connection (a host gone from the network, which TCP keepalive
 *   notices only after minutes): an operation whose statement is unanswered a grace past statement_timeout, when the
 *   server would have said it cancelled it, has lost its connection. The socket is destroyed (nothing waits on it, and
 *   the process can end) and the operation fails at once.
 *
 * A connection lost while an operation ran (the session ended by pg_terminate_backend, a restart, a failover) is
 * never used again: the driver would make it again for the next statement, while the transaction that was cut off
 * may still send its ROLLBACK on it. Lost between operations, the driver makes it again, and the mirror takes its
 * lock again (mirror.ts, checkLock).
 */
import type net from 'node:net';
import { performance } from 'node:perf_hooks';
import { connect, connectionHooks, type Db, type Sql } from './driver.js';
import { AddressError } from '../../sync/errors.js';
import { PostgresConnectionError } from './errors.js';
import { hostPort, type PgTarget } from './target.js';

/** The server cancels a statement that runs longer (SQLSTATE 57014): the merge of a full batch (64,000 rows) takes 1-2 s here. */
export const STATEMENT_TIMEOUT_MS = 120_000;
/** A statement waits this long for a lock another session holds (a DBA's LOCK TABLE or ALTER, a reader's row lock), then fails naming it (55P03). */
export const LOCK_TIMEOUT_MS = 10_000;
/** The server ends a session whose transaction stays idle this long (a process stopped mid-commit), releasing its locks. */
export const IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;
/** Past statement_timeout the server has cancelled a statement and said so: no answer this much later is no server. */
const ANSWER_GRACE_MS = 15_000;
/** Closing waits this long for the server to see the session out, then drops the connection. */
const CLOSE_TIMEOUT_S = 2;
/** A batch's temporary table stays in memory (about 1.5 KB a row, up to some 100 MB); set before the session's first one, as Postgres requires. */
const TEMP_BUFFERS = '128MB';

/** swapx's bounds (and temp_buffers), each as Postgres reads a setting. */
const DEFAULTS: Record<string, string> = {
  statement_timeout: `${STATEMENT_TIMEOUT_MS}ms`,
  lock_timeout: `${LOCK_TIMEOUT_MS}ms`,
  idle_in_transaction_session_timeout: `${IDLE_IN_TRANSACTION_TIMEOUT_MS}ms`,
  temp_buffers: TEMP_BUFFERS,
};

/** The lock_timeout a session waits, as messages say it: the user's (options, PGOPTIONS) as given, or swapx's. */
export function lockTimeoutText(target: Pick<PgTarget, 'settings'>): string {
  return target.settings?.lock_timeout ?? `${LOCK_TIMEOUT_MS / 1000} s`;
}

/** Sets the session's bounds (and temp_buffers) on a connection just made, the user's settings over them: one statement. */
export async function configure(sql: Sql, settings: Record<string, string> = {}): Promise<void> {
  const all = Object.entries({ ...DEFAULTS, ...settings });
  const list = all.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, false)`).join(', ');
  try {
    await sql.unsafe(`SELECT ${list}`, all.flat());
  } catch (error) {
    // A setting the server does not know (42704) or a value it refuses (22023) can only be the user's: bad input.
    const code = (error as { code?: unknown }).code;
    if (code === '42704' || code === '22023') {
      throw new AddressError({ kind: 'url' }, `: the setting in options or PGOPTIONS was refused (${String((error as Error).message)})`, { cause: error });
    }
    throw error;
  }
}

export interface SessionOptions {
  /** how long a statement may go unanswered before the connection is taken for lost; tests wait a second */
  answerLimitMs?: number;
}

/** The session of each connection: the mirror finds its own by its connection. */
const sessions = new WeakMap<Db, Session>();

export class Session {
  /** why the session cannot be used again, once it cannot */
  lost: Error | undefined;
  private socket: net.Socket | undefined;
  private running = 0;
  /** when the last statement was sent, or the operation began (performance.now()) */
  private lastSent = 0;
  private timer: NodeJS.Timeout | undefined;
  private expire: ((error: Error) => void) | undefined;

  private constructor(
    readonly target: PgTarget,
    /** the connection: made by the first statement, and made again by the driver after one lost between operations */
    readonly db: Db,
    private readonly answerLimitMs: number,
  ) {}

  /** The session of a connection connect() made, watching it from now on. */
  static attach(target: PgTarget, db: Db, options: SessionOptions = {}): Session {
    const session = new Session(target, db, options.answerLimitMs ?? STATEMENT_TIMEOUT_MS + ANSWER_GRACE_MS);
    const hooks = connectionHooks(db);
    hooks.onStatement = () => {
      session.lastSent = performance.now();
      if (session.running > 0) session.watch();
    };
    hooks.onSocket = (socket) => {
      session.socket = socket;
    };
    hooks.onClose = () => {
      if (session.running > 0) session.lost ??= new PostgresConnectionError(`the connection to Postgres at ${hostPort(target)} was lost`);
    };
    sessions.set(db, session);
    return session;
  }

  /** A connection, and its session. */
  static async open(target: PgTarget, options: SessionOptions = {}): Promise<Session> {
    return Session.attach(target, await connect(target), options);
  }

  /** The session attach() made for `db`. */
  static of(db: Db): Session {
    const session = sessions.get(db);
    if (!session) throw new Error('a connection without a session');
    return session;
  }

  /**
   * Runs an operation of statements on the session: it fails at once, with the session lost, when a statement of it
   * is not answered within the limit (the first also has connect_timeout to connect). A session lost is not used.
   */
  async run<T>(operation: () => Promise<T>): Promise<T> {
    this.begin();
    const expired = new Promise<never>((_resolve, reject) => {
      this.expire = reject;
    });
    try {
      return await Promise.race([operation(), expired]);
    } finally {
      this.settle();
    }
  }

  /** An operation begins (settle() when it ends): its statements are watched; a session lost throws why. */
  begin(): this {
    if (this.lost) throw this.lost;
    this.running += 1;
    // Connecting first is the driver's to bound (connect_timeout): until the first statement is sent, that long more.
    const connecting = this.socket === undefined || this.socket.readyState !== 'open';
    this.lastSent = performance.now() + (connecting ? (this.target.connectTimeout === 0 ? 3600 : this.target.connectTimeout) * 1000 : 0);
    this.watch();
    return this;
  }

  settle(): void {
    this.running = Math.max(0, this.running - 1);
    if (this.running === 0) clearTimeout(this.timer);
  }

  private watch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(
      () => {
        if (this.running === 0) return;
        if (performance.now() - this.lastSent < this.answerLimitMs) return this.watch();
        const error = new PostgresConnectionError(
          `Postgres at ${hostPort(this.target)} did not answer for ${Math.round(this.answerLimitMs / 1000)} s: the server or the network is down; run again when it is up`,
        );
        this.lost = error;
        void this.drop();
        this.expire?.(error);
      },
      Math.max(0, this.lastSent + this.answerLimitMs - performance.now()),
    );
  }

  /**
   * Drops the connection now: the statements waiting on it rejected, none made again, and then its socket destroyed
   * (in that order: the driver's last message, written through TLS on a socket already destroyed, would fail where
   * nothing listens).
   */
  private async drop(): Promise<void> {
    await this.db.end({ timeout: 0 }).catch(() => {});
    this.socket?.destroy();
  }

  /** Ends the session (and with it the locks it holds), within CLOSE_TIMEOUT_S; at once when it is lost. */
  async end(): Promise<void> {
    // Its own close is no connection lost.
    this.running = 0;
    clearTimeout(this.timer);
    if (!this.lost) await this.db.end({ timeout: CLOSE_TIMEOUT_S }).catch(() => {});
    await this.drop();
  }
}
