/** Checks of positional arguments: each failure is a one-line UsageError (exit 2). */
import { UsageError } from '../api/errors.js';

/**
 * An identifier that goes into a URL path segment: it must stay one segment
 * and mean what it says, so no separators, dot segments, escapes or controls.
 */
export function checkPathIdentifier(value: string, what: string): string {
  const text = value.trim();
  if (text === '') throw new UsageError(`${what} is empty`);
  if (text.length > 256) throw new UsageError(`${what} is too long (${text.length} characters; at most 256)`);
  if (/[\u0000-\u001f\u007f-\u009f]/.test(text)) throw new UsageError(`${what} contains a control character`);
  if (/\s/.test(text)) throw new UsageError(`${what} contains white space: '${text}'`);
  const bad = /[/\\%?#]/.exec(text);
  if (bad) throw new UsageError(`${what} contains '${bad[0]}', which no identifier has: '${text}'`);
  if (text === '.' || text === '..') throw new UsageError(`${what} cannot be '${text}'`);
  return text;
}
