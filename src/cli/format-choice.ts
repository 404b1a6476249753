/** Choosing the output format: flags, then the -o extension, then the profile, then the terminal; each rule reads the registry. */
import { UsageError } from '../api/errors.js';
import { formatFromPath, parseFormat } from '../formats/choose.js';
import type { Format } from '../formats/format.js';
import { DEFAULT_FORMAT, FORMATS, type FormatName, formatOf, inLookups, TERMINAL_FORMAT } from '../formats/registry.js';
import { orList } from '../util/words.js';

export interface FormatFlags {
  format?: string;
  output?: string;
  /** the shorthands: --json, --jsonl, --csv (each format marked `shorthand`) */
  [shorthand: string]: string | boolean | undefined;
}

const KNOWN_EXTENSIONS = `${FORMATS.flatMap((format) => format.extensions).join(', ')}, and .gz after a text one`;

/** `-o -`: standard output, as in curl and tar. */
export const STDOUT_NAME = '-';

/** Why `file`, named .gz, cannot hold `format`. */
function gzipRefusal(file: string, format: Format): string {
  if (format.people) {
    const gzipped = FORMATS.filter((other) => other.gzip).map((other) => other.name);
    return `-o ${file}: a ${format.title} is for a terminal; write ${orList(gzipped)} to a .gz file`;
  }
  return `-o ${file}: ${format.title} is compressed inside; name the file ${format.extensions[0]}, without .gz`;
}

/** The -o name checked against the format (exit 2, before anything is written). */
function checkOutputName(file: string, explicit: FormatName | undefined, explicitText: string): { format: FormatName | undefined; gzip: boolean } {
  const { format, gzip, ext } = formatFromPath(file);
  if (ext && !format) throw new UsageError(`-o ${file}: swapx does not know the extension ${ext} (known: ${KNOWN_EXTENSIONS})`);
  if (format && explicit && format !== explicit) {
    throw new UsageError(`${explicitText} contradicts -o ${file}, a ${ext} file: give a matching extension, or leave one of them out`);
  }
  const chosen = format ?? explicit;
  if (gzip && chosen && !formatOf(chosen).gzip) throw new UsageError(gzipRefusal(file, formatOf(chosen)));
  return { format, gzip };
}

/** Where a format only an export writes (Parquet) is refused, whichever way it was asked for: before any other advice about it. */
export function onlyInExport(format: Format): string {
  const instead = FORMATS.filter((other) => !other.people && inLookups(other)).map((other) => other.name);
  return `${format.title} output is for swapx swaps and swapx sync; use ${orList(instead)} here`;
}

/** Where a format written only to a file (Parquet) was asked for without one. */
export function onlyToFile(format: Format): string {
  return `${format.title} is written only to a file: add -o FILE${format.extensions[0]}`;
}

/** `export`: the command runs an export (swapx swaps), which writes every format; elsewhere, the lookups' (default true). */
export function resolveFormat(
  flags: FormatFlags,
  context: { stdoutIsTTY: boolean; configured?: FormatName; export?: boolean },
): { format: FormatName; gzip: boolean } {
  const shorthands = FORMATS.filter((format) => format.shorthand && flags[format.name]).map((format) => format.name);
  if (shorthands.length > 1) throw new UsageError(`choose one output format, not ${shorthands.map((s) => `--${s}`).join(' and ')}`);
  const explicit = flags.format !== undefined ? parseFormat(flags.format, '--format') : shorthands[0];
  // Without --format, explicit is the shorthand itself: only --format can disagree with it.
  if (shorthands[0] && explicit !== shorthands[0]) {
    throw new UsageError(`--format ${flags.format} and --${shorthands[0]} disagree: give one`);
  }
  const explicitText = flags.format !== undefined ? `--format ${flags.format}` : `--${shorthands[0]}`;
  const toFile = flags.output !== undefined && flags.output !== STDOUT_NAME;
  if (context.export === false) {
    const fromName = toFile ? formatFromPath(flags.output!).format : undefined;
    const exportOnly = [explicit, fromName].map((name) => name && formatOf(name)).find((format) => format && !inLookups(format));
    if (exportOnly) throw new UsageError(onlyInExport(exportOnly));
  }
  const fromFile = toFile ? checkOutputName(flags.output!, explicit, explicitText) : { format: undefined, gzip: false };
  const format = explicit ?? fromFile.format ?? context.configured ?? (context.stdoutIsTTY && !toFile ? TERMINAL_FORMAT : DEFAULT_FORMAT).name;
  if (formatOf(format).fileOnly && !toFile) throw new UsageError(onlyToFile(formatOf(format)));
  return { format, gzip: fromFile.gzip };
}
