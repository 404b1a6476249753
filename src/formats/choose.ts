/**
 * Formats by the names and file extensions users give: the registry's words, read by the shell's choice of a format
 * (cli/format-choice.ts) and by the profile's setting.
 */
import { UsageError } from '../api/errors.js';
import { DEFAULT_FORMAT, FORMATS, type FormatName, formatOfExtension, TERMINAL_FORMAT } from './registry.js';

export const FORMAT_NAMES: readonly FormatName[] = FORMATS.map((format) => format.name);
/** What a profile may set as its default: a format written only to a file is asked for per export. */
export const DEFAULT_FORMATS: readonly FormatName[] = FORMATS.filter((format) => !format.fileOnly).map((format) => format.name);

/** The format when none is asked for, as help and `config list` say it. */
export const DEFAULT_CHOICE = `${TERMINAL_FORMAT.name} on a terminal, ${DEFAULT_FORMAT.name} otherwise`;

/** A format's name as a user wrote it; `from` names where (a flag, a setting), for the refusal. */
export function parseFormat(text: string, from: string, allowed: readonly FormatName[] = FORMAT_NAMES): FormatName {
  const format = text.trim().toLowerCase();
  if (!(allowed as readonly string[]).includes(format)) throw new UsageError(`${from}: unknown format '${text}' (use one of ${allowed.join(', ')})`);
  return format as FormatName;
}

/**
 * `out.csv.gz` → { format: 'csv', gzip: true }; format undefined when the extension names none.
 * `ext` is the extension swapx looked at ('' for a name without one, such as `out` or `/dev/stdout`).
 */
export function formatFromPath(file: string): { format: FormatName | undefined; gzip: boolean; ext: string } {
  const name = file.toLowerCase().replace(/^.*\//, '');
  const gzip = name.endsWith('.gz');
  const base = gzip ? name.slice(0, -3) : name;
  // A leading dot names a hidden file, not an extension.
  const ext = /.\.([a-z][a-z0-9]*)$/.exec(base)?.[1] ?? '';
  return { format: formatOfExtension(`.${ext}`)?.name, gzip, ext: ext && `.${ext}` };
}
