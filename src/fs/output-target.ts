/**
 * Where a file swapx writes (-o FILE of every command, the profile store) really goes, decided in this one place
 * before any request. swapx writes a file whole beside its target and renames it into place, so:
 * - a device, a FIFO or a socket is refused: the rename would replace the thing itself (as root, -o /dev/null would
 *   turn /dev/null into a plain file for the whole machine), and a FIFO's reader would wait forever;
 * - a directory is refused: the rename would fail only after the work;
 * - a symbolic link is written through: the file it names is replaced, the link stays (as `>` and `cp` do); a
 *   link to nothing is refused, as GNU cp refuses it, rather than guessing where to create the file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../api/errors.js';

/** Whether a destination (sync's --out, an export's -o) names an object store (`s3://`) rather than a path. */
export function isS3Url(out: string): boolean {
  return /^s3:\/\//i.test(out.trim());
}

/** A file of this kind can be written by a rename beside it; anything else is refused. */
export type TargetKind = 'a file' | 'a directory' | 'a FIFO' | 'a socket' | 'a device';

export function kindOf(stat: fs.Stats): TargetKind {
  if (stat.isFile()) return 'a file';
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO';
  return stat.isSocket() ? 'a socket' : 'a device';
}

function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

/**
 * The path to write `file` at: `file` itself, or for a symbolic link the file it names. `option` is how the
 * messages name the path (the shell's `-o`). Throws UsageError (exit 2) for what cannot be written by a rename; a folder
 * that is missing or not a folder throws the file-system error, its `path` the file as the user gave it.
 */
export function outputTarget(file: string, option: string): string {
  let link: fs.Stats;
  try {
    link = fs.lstatSync(file);
  } catch (error) {
    if (codeOf(error) !== 'ENOENT') throw Object.assign(error as Error, { path: file });
    // Nothing there yet: its folder must be, or the work would fail only at its end.
    try {
      if (!fs.statSync(path.dirname(file)).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    } catch (folderError) {
      throw Object.assign(folderError as Error, { path: file });
    }
    return writable(file, file);
  }
  let target = file;
  if (link.isSymbolicLink()) {
    try {
      target = fs.realpathSync(file);
    } catch (error) {
      if (codeOf(error) === 'ENOENT')
        throw new UsageError(`${option} ${file} is a symbolic link to ${fs.readlinkSync(file)}, which does not exist: give the path of the file to write`);
      if (codeOf(error) === 'ELOOP') throw new UsageError(`${option} ${file} is a loop of symbolic links`);
      throw Object.assign(error as Error, { path: file });
    }
  }
  const kind = kindOf(fs.statSync(target));
  if (kind === 'a file') return writable(target, file);
  const what = target === file ? kind : `a symbolic link to ${target}, ${kind}`;
  if (kind === 'a directory') throw new UsageError(`${option} ${file} is ${what}, not a file: name a file in it (${option} ${path.join(file, 'NAME')})`);
  const stream = option.startsWith('-') ? `; to write into it, use ${option} - (standard output) and redirect` : '';
  throw new UsageError(`${option} ${file} is ${what}, not a file: swapx writes a file beside its target and renames it into place${stream}`);
}

/**
 * `target`, once its folder can take a new file: a read-only disk (EROFS) or a folder the user may not write (EACCES)
 * is said before any request, naming `file` as the user gave it.
 */
function writable(target: string, file: string): string {
  try {
    fs.accessSync(path.dirname(target), fs.constants.W_OK);
  } catch (error) {
    throw Object.assign(error as Error, { path: file });
  }
  return target;
}
