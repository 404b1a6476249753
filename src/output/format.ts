/** Choosing the output format: flags, then the -o extension, then the profile, then the terminal. */
import { UsageError } from '../api/errors.js';

export const FORMATS = ['table', 'json', 'jsonl', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

export interface FormatFlags {
  format?: string;
  json?: boolean;
  jsonl?: boolean;
  csv?: boolean;
  output?: string;
}

const EXTENSIONS: Record<string, Format> = { '.json': 'json', '.jsonl': 'jsonl', '.ndjson': 'jsonl', '.csv': 'csv' };

export function parseFormat(text: string, from = '--format'): Format {
  const format = text.trim().toLowerCase();
  if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`${from}: unknown format '${text}' (use one of ${FORMATS.join(', ')})`);
  return format as Format;
}

/** `out.csv.gz` → { format: 'csv', gzip: true }; format undefined when the extension names none. */
export function formatFromPath(file: string): { format: Format | undefined; gzip: boolean } {
  const lower = file.toLowerCase();
  const gzip = lower.endsWith('.gz');
  const base = gzip ? lower.slice(0, -3) : lower;
  const ext = /\.[a-z]+$/.exec(base)?.[0] ?? '';
  return { format: EXTENSIONS[ext], gzip };
}

export function resolveFormat(flags: FormatFlags, context: { stdoutIsTTY: boolean; configured?: Format }): { format: Format; gzip: boolean } {
  const shorthands = (['json', 'jsonl', 'csv'] as const).filter((name) => flags[name]);
  if (shorthands.length > 1) throw new UsageError(`choose one output format, not ${shorthands.map((s) => `--${s}`).join(' and ')}`);
  const explicit = flags.format !== undefined ? parseFormat(flags.format) : shorthands[0];
  if (explicit && shorthands[0] && flags.format !== undefined && explicit !== shorthands[0]) {
    throw new UsageError(`--format ${flags.format} and --${shorthands[0]} disagree: give one`);
  }
  const fromFile = flags.output ? formatFromPath(flags.output) : { format: undefined, gzip: false };
  const format = explicit ?? fromFile.format ?? context.configured ?? (context.stdoutIsTTY && !flags.output ? 'table' : 'jsonl');
  return { format, gzip: fromFile.gzip };
}
