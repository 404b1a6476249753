/** Choosing the output format: the flags, the -o name, the profile, the terminal, and the words of each refusal. */
import { describe, expect, it } from 'vitest';
import { onlyInExport, resolveFormat, STDOUT_NAME, type FormatFlags } from '../../src/cli/format-choice.js';
import { DEFAULT_FORMATS, FORMAT_NAMES, formatFromPath, parseFormat } from '../../src/formats/choose.js';
import { parquet } from '../../src/formats/parquet.js';
import { refusal } from '../helpers/refusal.js';

const PARQUET_ELSEWHERE = onlyInExport(parquet);

const tty = { stdoutIsTTY: true };
const pipe = { stdoutIsTTY: false };
const resolve = (flags: FormatFlags, context: Parameters<typeof resolveFormat>[1] = pipe) => resolveFormat(flags, context);

describe('the format lists', () => {
  it('every format; a profile may default to any but Parquet', () => {
    expect(FORMAT_NAMES).toEqual(['table', 'json', 'jsonl', 'csv', 'parquet']);
    expect(DEFAULT_FORMATS).toEqual(['table', 'json', 'jsonl', 'csv']);
    expect(STDOUT_NAME).toBe('-');
  });
});

describe('parseFormat', () => {
  it('reads a name in any case, spaces trimmed', () => {
    expect(parseFormat(' CSV ', '--format')).toBe('csv');
    expect(parseFormat('parquet', '--format')).toBe('parquet');
  });
  it('refuses an unknown one, naming where it came from and the allowed ones', () => {
    expect(refusal(() => parseFormat('xml', '--format'))).toBe("--format: unknown format 'xml' (use one of table, json, jsonl, csv, parquet)");
    expect(refusal(() => parseFormat('Parquet', 'format in the profile', DEFAULT_FORMATS))).toBe(
      "format in the profile: unknown format 'Parquet' (use one of table, json, jsonl, csv)",
    );
  });
});

describe('formatFromPath', () => {
  it.each([
    ['out.csv', { format: 'csv', gzip: false, ext: '.csv' }],
    ['dir.d/OUT.JSONL.GZ', { format: 'jsonl', gzip: true, ext: '.jsonl' }],
    ['a.ndjson', { format: 'jsonl', gzip: false, ext: '.ndjson' }],
    ['x.json', { format: 'json', gzip: false, ext: '.json' }],
    ['x.parquet', { format: 'parquet', gzip: false, ext: '.parquet' }],
    ['out', { format: undefined, gzip: false, ext: '' }],
    ['out.gz', { format: undefined, gzip: true, ext: '' }],
    ['/dev/stdout', { format: undefined, gzip: false, ext: '' }],
    ['.csv', { format: undefined, gzip: false, ext: '' }],
    ['dir.csv/.jsonl', { format: undefined, gzip: false, ext: '' }],
    ['out.txt', { format: undefined, gzip: false, ext: '.txt' }],
    ['out.7z', { format: undefined, gzip: false, ext: '' }],
    ['out.mp4', { format: undefined, gzip: false, ext: '.mp4' }],
    ['/a.d/b', { format: undefined, gzip: false, ext: '' }],
    ['out.x.csv', { format: 'csv', gzip: false, ext: '.csv' }],
    ['outgz', { format: undefined, gzip: false, ext: '' }],
  ])('%s', (file, expected) => {
    expect(formatFromPath(file)).toEqual(expected);
  });
});

describe('resolveFormat', () => {
  it('a flag wins; --format and its shorthand agree', () => {
    expect(resolve({ format: 'csv' }, tty)).toEqual({ format: 'csv', gzip: false });
    expect(resolve({ json: true }, tty)).toEqual({ format: 'json', gzip: false });
    expect(resolve({ jsonl: true }, tty)).toEqual({ format: 'jsonl', gzip: false });
    expect(resolve({ csv: true, format: 'CSV' }, tty)).toEqual({ format: 'csv', gzip: false });
    expect(resolve({ format: 'json', output: 'x.json.gz' })).toEqual({ format: 'json', gzip: true });
  });

  it('then the -o extension, then the profile, then a table on a terminal, else JSON Lines', () => {
    expect(resolve({ output: 'x.csv.gz' }, { stdoutIsTTY: true, configured: 'json' })).toEqual({ format: 'csv', gzip: true });
    expect(resolve({ output: 'x' }, { stdoutIsTTY: true, configured: 'json' })).toEqual({ format: 'json', gzip: false });
    expect(resolve({}, { stdoutIsTTY: true, configured: 'csv' })).toEqual({ format: 'csv', gzip: false });
    expect(resolve({}, tty)).toEqual({ format: 'table', gzip: false });
    expect(resolve({ output: '-' }, tty)).toEqual({ format: 'table', gzip: false });
    expect(resolve({}, pipe)).toEqual({ format: 'jsonl', gzip: false });
    // To a file without an extension: not a table even from a terminal.
    expect(resolve({ output: 'out' }, tty)).toEqual({ format: 'jsonl', gzip: false });
    expect(resolve({ output: 'out.gz' }, tty)).toEqual({ format: 'jsonl', gzip: true });
    // `-o -` is standard output: its name is not checked.
    expect(resolve({ output: '-', format: 'csv' }, pipe)).toEqual({ format: 'csv', gzip: false });
    expect(resolve({ output: 'x.parquet' }, pipe)).toEqual({ format: 'parquet', gzip: false });
    expect(resolve({ output: 'x.parquet' }, { stdoutIsTTY: false, export: true })).toEqual({ format: 'parquet', gzip: false });
  });

  it('refuses two shorthands, or --format against its shorthand', () => {
    expect(refusal(() => resolve({ json: true, csv: true }))).toBe('choose one output format, not --json and --csv');
    expect(refusal(() => resolve({ json: true, jsonl: true, csv: true }))).toBe('choose one output format, not --json and --jsonl and --csv');
    expect(refusal(() => resolve({ format: 'csv', json: true }))).toBe('--format csv and --json disagree: give one');
    expect(refusal(() => resolve({ format: 'xml' }))).toBe("--format: unknown format 'xml' (use one of table, json, jsonl, csv, parquet)");
  });

  it('refuses an -o name that contradicts the format or that swapx cannot write', () => {
    expect(refusal(() => resolve({ format: 'json', output: 'x.csv' }))).toBe(
      '--format json contradicts -o x.csv, a .csv file: give a matching extension, or leave one of them out',
    );
    expect(refusal(() => resolve({ jsonl: true, output: 'x.csv' }))).toBe(
      '--jsonl contradicts -o x.csv, a .csv file: give a matching extension, or leave one of them out',
    );
    expect(refusal(() => resolve({ output: 'x.txt' }))).toBe(
      '-o x.txt: swapx does not know the extension .txt (known: .json, .jsonl, .ndjson, .csv, .parquet, and .gz after a text one)',
    );
    expect(refusal(() => resolve({ output: 'x.parquet.gz' }))).toBe('-o x.parquet.gz: Parquet is compressed inside; name the file .parquet, without .gz');
    expect(refusal(() => resolve({ format: 'parquet', output: 'x.gz' }))).toBe('-o x.gz: Parquet is compressed inside; name the file .parquet, without .gz');
    expect(refusal(() => resolve({ format: 'table', output: 'x.gz' }))).toBe('-o x.gz: a table is for a terminal; write json, jsonl or csv to a .gz file');
    expect(resolve({ format: 'table', output: 'x' })).toEqual({ format: 'table', gzip: false });
  });

  it('Parquet: only to a file, and only where the command writes it', () => {
    expect(refusal(() => resolve({ format: 'parquet' }))).toBe('Parquet is written only to a file: add -o FILE.parquet');
    expect(refusal(() => resolve({ format: 'parquet', output: '-' }))).toBe('Parquet is written only to a file: add -o FILE.parquet');
    expect(refusal(() => resolve({}, { stdoutIsTTY: false, configured: 'parquet' }))).toBe('Parquet is written only to a file: add -o FILE.parquet');
    expect(refusal(() => resolve({ format: 'parquet' }, { stdoutIsTTY: false, export: false }))).toBe(PARQUET_ELSEWHERE);
    expect(refusal(() => resolve({ output: 'x.parquet' }, { stdoutIsTTY: false, export: false }))).toBe(PARQUET_ELSEWHERE);
    // Before the advice about its name.
    expect(refusal(() => resolve({ format: 'json', output: 'x.parquet' }, { stdoutIsTTY: false, export: false }))).toBe(PARQUET_ELSEWHERE);
    expect(PARQUET_ELSEWHERE).toBe('Parquet output is for swapx swaps and swapx sync; use json, jsonl or csv here');
    expect(resolve({ output: 'x.csv' }, { stdoutIsTTY: false, export: false })).toEqual({ format: 'csv', gzip: false });
    expect(resolve({ output: '-' }, { stdoutIsTTY: false, export: false })).toEqual({ format: 'jsonl', gzip: false });
    expect(resolve({}, { stdoutIsTTY: false, export: false })).toEqual({ format: 'jsonl', gzip: false });
    expect(resolve({ csv: true }, { stdoutIsTTY: false, export: false })).toEqual({ format: 'csv', gzip: false });
  });
});
