/**
 * The password file as libpq reads it (https://www.postgresql.org/docs/15/libpq-pgpass.html):
 * lines of `hostname:port:database:username:password`, `*` matching anything, `\` escaping `:` and `\`,
 * `#` starting a comment; the first matching line wins. A file that group or others can read is ignored,
 * as libpq ignores it, and said so in libpq's words. A Unix-socket host matches `localhost`.
 */
import fs from 'node:fs';

export interface PassKey {
  host: string;
  port: number;
  database: string;
  user: string;
}

/** The fields of one line, unescaped; undefined for a comment or a line of fewer than five fields (a blank one among them). */
function fields(line: string): string[] | undefined {
  if (line.startsWith('#')) return undefined;
  const out: string[] = [];
  let current = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\\' && i + 1 < line.length) current += line[++i];
    else if (c === ':' && out.length < 4) {
      out.push(current);
      current = '';
    } else current += c;
  }
  out.push(current);
  return out.length === 5 ? out : undefined;
}

/** libpq's warning, word for word, for a password file it will not read because group or others may. */
export function unsafeModeWarning(file: string): string {
  return `WARNING: password file "${file}" has group or world access; permissions should be u=rw (0600) or less`;
}

/**
 * The password for `key` in `file`, or undefined (no file, no line, or a file others may read). A file skipped for
 * its mode is told to `onUnsafe` with the mode: libpq warns, and the login's error names it.
 */
export function lookUpPassword(file: string, key: PassKey, onUnsafe?: (mode: number) => void): string | undefined {
  let text: string;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) return undefined;
    if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
      onUnsafe?.(stat.mode & 0o777);
      return undefined;
    }
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const host = key.host.startsWith('/') ? 'localhost' : key.host;
  const wanted = [host, String(key.port), key.database, key.user];
  for (const line of text.split(/\r?\n/)) {
    const f = fields(line);
    if (f && wanted.every((value, i) => f[i] === '*' || f[i] === value)) return f[4];
  }
  return undefined;
}
