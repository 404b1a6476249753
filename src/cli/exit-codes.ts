/** The one place errors become exit codes (CLI.md) and one-line messages. */
import { CommanderError } from 'commander';
import { stripControl } from '../output/sanitize.js';
import { AbortedError, AuthError, PermissionDeniedError, SwapxError, UsageError, ValidationError, WrappedError } from '../api/errors.js';
import { NoMatchError } from './errors.js';
import { WindowFailedError } from '../windows/run-windows.js';
import { EXIT } from './exit-status.js';

// The codes themselves live apart (the bin's start uses them without loading this mapping); here for every other user.
export { EXIT };

/**
 * An error's exit code, by its class. The object store's errors (src/mirror/lake/s3/errors.ts) are classes of this
 * hierarchy and take their base's code: a wrong key, an expired token or AccessDenied (S3CredentialsError,
 * S3AccessDeniedError: AuthError) 3; a bucket that does not exist (NoSuchBucketError: UsageError) 2; an endpoint
 * that cannot be reached (S3UnreachableError: ConnectionError), another refusal (S3Error) and a conditional put that
 * lost its race (PreconditionFailedError) 1. Not imported here: a lookup never loads the lake's modules.
 */
export function exitCodeFor(error: unknown): number {
  let inWindow = false;
  while (error instanceof WrappedError && error.cause !== undefined) {
    inWindow ||= error instanceof WindowFailedError;
    error = error.cause;
  }
  if (error instanceof AbortedError) return EXIT.interrupted;
  if (error instanceof UsageError || error instanceof CommanderError) return EXIT.usage;
  if (error instanceof AuthError || error instanceof PermissionDeniedError) return EXIT.auth;
  // 4 is for lookups that find nothing (they say so with NoMatchError); a raw 404 elsewhere means a wrong base URL.
  if (error instanceof NoMatchError) return EXIT.notFound;
  // A 400 to a lookup refuses what the user typed (an identifier, a page), which they can change: exit 2. A window of
  // an export or a sync is a request swapx made from input it had checked: its 400 is the work failing (exit 1,
  // resumable), not the "checked before any request" of exit 2.
  if (error instanceof ValidationError) return inWindow ? EXIT.failed : EXIT.usage;
  return EXIT.failed;
}

const FS_MESSAGES: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOENT: 'no such file or directory',
  ENOTDIR: 'not a directory',
  EISDIR: 'is a directory',
  EEXIST: 'file already exists',
  EDQUOT: 'disk quota exceeded',
  EIO: 'input/output error',
  EFBIG: 'file too large',
  // swapx opens the files it makes beside FILE without following a symbolic link (fs/open-flags.ts).
  ELOOP: 'a symbolic link where swapx makes its own file, not followed',
};

/** "no space left on device" for a file-system error, without the file; undefined for anything else. */
export function fsReason(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? FS_MESSAGES[code] : undefined;
}

/** One line for stderr; never a stack trace, never a credential, never a server's terminal escape. */
export function messageFor(error: unknown): string {
  return stripControl(rawMessage(error));
}

function rawMessage(error: unknown): string {
  if (error instanceof SwapxError) return error.message;
  const reason = fsReason(error);
  if (reason) {
    const file = (error as { path?: unknown }).path;
    return `${reason}${typeof file === 'string' ? `: ${file}` : ''}`;
  }
  return error instanceof Error ? error.message : String(error);
}
