/** Choosing the output format: flags, then the -o extension, then the profile, then the terminal. */
import { UsageError } from '../api/errors.js';

export const FORMATS = ['table', 'json', 'jsonl', 'csv', 'parquet'] as const;
export type Format = (typeof FORMATS)[number];
/** What a profile may set as its default: Parquet is only ever asked for, per export to a file. */
export const DEFAULT_FORMATS = FORMATS.filter((format) => format !== 'parquet');

export interface FormatFlags {
  format?: string;
  json?: boolean;
  jsonl?: boolean;
  csv?: boolean;
  output?: string;
}

const EXTENSIONS: Record<string, Format> = { '.json': 'json', '.jsonl': 'jsonl', '.ndjson': 'jsonl', '.csv': 'csv', '.parquet': 'parquet' };
const KNOWN_EXTENSIONS = `${Object.keys(EXTENSIONS).join(', ')}, and .gz after a text one`;

/** `-o -`: standard output, as in curl and tar. */
export const STDOUT_NAME = '-';

export function parseFormat(text: string, from = '--format', allowed: readonly Format[] = FORMATS): Format {
  const format = text.trim().toLowerCase();
  if (!(allowed as readonly string[]).includes(format)) throw new UsageError(`${from}: unknown format '${text}' (use one of ${allowed.join(', ')})`);
  return format as Format;
}

/**
 * `out.csv.gz` → { format: 'csv', gzip: true }; format undefined when the extension names none.
 * `ext` is the extension swapx looked at ('' for a name without one, such as `out` or `/dev/stdout`).
 */
export function formatFromPath(file: string): { format: Format | undefined; gzip: boolean; ext: string } {
  const name = file.toLowerCase().replace(/^.*\//, '');
  const gzip = name.endsWith('.gz');
  const base = gzip ? name.slice(0, -3) : name;
  // A leading dot names a hidden file, not an extension.
  const ext = /.\.([a-z][a-z0-9]*)$/.exec(base)?.[1] ?? '';
  return { format: EXTENSIONS[`.${ext}`], gzip, ext: ext && `.${ext}` };
}

/** The -o name checked against the format (exit 2, before anything is written). */
function checkOutputName(file: string, explicit: Format | undefined, explicitText: string): { format: Format | undefined; gzip: boolean } {
  const { format, gzip, ext } = formatFromPath(file);
  if (ext && !format) throw new UsageError(`-o ${file}: swapx does not know the extension ${ext} (known: ${KNOWN_EXTENSIONS})`);
  if (format && explicit && format !== explicit) {
    throw new UsageError(`${explicitText} contradicts -o ${file}, a ${ext} file: give a matching extension, or leave one of them out`);
  }
  const chosen = format ?? explicit;
  if (gzip && chosen === 'parquet') throw new UsageError(`-o ${file}: Parquet is compressed inside; name the file .parquet, without .gz`);
  if (gzip && chosen === 'table') throw new UsageError(`-o ${file}: a table is for a terminal; write json, jsonl or csv to a .gz file`);
  return { format, gzip };
}
/** Where Parquet is refused, whichever way it was asked for (--format, -o FILE.parquet): before any other advice about it. */
export const PARQUET_ELSEWHERE = 'Parquet output is for swapx swaps and swapx sync; use json, jsonl or csv here';

/** `parquet`: the command can write Parquet (default true). */
export function resolveFormat(
  flags: FormatFlags,
  context: { stdoutIsTTY: boolean; configured?: Format; parquet?: boolean },
): { format: Format; gzip: boolean } {
  const shorthands = (['json', 'jsonl', 'csv'] as const).filter((name) => flags[name]);
  if (shorthands.length > 1) throw new UsageError(`choose one output format, not ${shorthands.map((s) => `--${s}`).join(' and ')}`);
  const explicit = flags.format !== undefined ? parseFormat(flags.format) : shorthands[0];
  // Without --format, explicit is the shorthand itself: only --format can disagree with it.
  if (shorthands[0] && explicit !== shorthands[0]) {
    throw new UsageError(`--format ${flags.format} and --${shorthands[0]} disagree: give one`);
  }
  const explicitText = flags.format !== undefined ? `--format ${flags.format}` : `--${shorthands[0]}`;
  const toFile = flags.output !== undefined && flags.output !== STDOUT_NAME;
  if (context.parquet === false && (explicit === 'parquet' || (toFile && formatFromPath(flags.output!).format === 'parquet'))) {
    throw new UsageError(PARQUET_ELSEWHERE);
  }
  const fromFile = toFile ? checkOutputName(flags.output!, explicit, explicitText) : { format: undefined, gzip: false };
  const format = explicit ?? fromFile.format ?? context.configured ?? (context.stdoutIsTTY && !toFile ? 'table' : 'jsonl');
  if (format === 'parquet' && !toFile) throw new UsageError('Parquet is written only to a file: add -o FILE.parquet');
  return { format, gzip: fromFile.gzip };
}
