/**
 * What failed in Postgres, one class for each thing a monitor tells apart by the `"error"` of a `sync-failed` line:
 * a database that is down or gone, a TLS handshake, a statement (with its SQLSTATE), a wait on another session's
 * lock, a refused login or permission. Each extends the class whose exit code it has (api/errors.ts): the CLI's
 * mapping (cli/exit-codes.ts) is unchanged.
 */
import { AuthError, WrappedError } from '../../api/errors.js';

/** The server cannot be reached, refused or timed out the connection, takes none now, or the connection was lost (exit 1). */
export class PostgresConnectionError extends WrappedError {}

/** The TLS handshake failed: a certificate not trusted, a name it does not hold, a server without TLS (exit 1). */
export class PostgresTlsError extends WrappedError {}

/** A statement failed; `sqlState` is Postgres's code for why (exit 1). */
export class PostgresStatementError extends WrappedError {
  readonly sqlState: string | undefined;
  constructor(message: string, sqlState: string | undefined, options?: ErrorOptions) {
    super(message, options);
    this.sqlState = sqlState;
  }
}

/** A statement waited lock_timeout for a lock another session holds (SQLSTATE 55P03); the message names that session (exit 1). */
export class PostgresLockTimeoutError extends PostgresStatementError {}

/** The server refused the login: a wrong or missing password (exit 3). */
export class PostgresLoginError extends AuthError {}

/** The role may not do what the sync needs: connect to the database, create or write the tables (exit 3). */
export class PostgresPermissionError extends AuthError {}
