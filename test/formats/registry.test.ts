/**
 * The registry and each format module's spec: every fact is coherent with the others, and each rule that reads it
 * (the -o extension, .gz, stdout, the lookups, the sync's --format) gives each format what its spec says.
 */
import { describe, expect, it } from 'vitest';
import { onlyInExport, onlyToFile, resolveFormat } from '../../src/cli/format-choice.js';
import { formatFromPath, parseFormat } from '../../src/formats/choose.js';
import { DEFAULT_FORMAT, FORMATS, formatNamed, formatOfExtension, inLookups, MIRROR_FORMATS, TERMINAL_FORMAT } from '../../src/formats/registry.js';
import { parseSyncFlags } from '../../src/commands/sync/flags.js';
import { refusal } from '../helpers/refusal.js';

const pipe = { stdoutIsTTY: false };

describe('the registry', () => {
  it('lists each format once, by a name --format takes, in the order help lists them', () => {
    const names = FORMATS.map((format) => format.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(['table', 'json', 'jsonl', 'csv', 'parquet']);
    for (const format of FORMATS) {
      expect(formatNamed(format.name)).toBe(format);
      expect(parseFormat(format.name.toUpperCase(), '--format')).toBe(format.name);
    }
    expect(formatNamed('xml')).toBeUndefined();
  });

  it('gives each extension to one format, and the extension maps back to it (with .gz where it applies)', () => {
    const extensions = FORMATS.flatMap((format) => format.extensions);
    expect(new Set(extensions).size).toBe(extensions.length);
    for (const format of FORMATS) {
      for (const extension of format.extensions) {
        expect(extension).toMatch(/^\.[a-z][a-z0-9]*$/);
        expect(formatOfExtension(extension)).toBe(format);
        expect(formatFromPath(`out${extension}`)).toEqual({ format: format.name, gzip: false, ext: extension });
        expect(resolveFormat({ output: `out${extension}` }, pipe)).toEqual({ format: format.name, gzip: false });
        if (format.gzip) expect(resolveFormat({ output: `out${extension}.gz` }, pipe)).toEqual({ format: format.name, gzip: true });
        else expect(() => resolveFormat({ output: `out${extension}.gz` }, pipe)).toThrow(/compressed inside/);
      }
    }
  });

  it('the defaults: a pipe and a new mirror get a format streamed anywhere, a terminal the people view', () => {
    expect(DEFAULT_FORMAT.name).toBe('jsonl');
    expect(DEFAULT_FORMAT.fileOnly).toBe(false);
    expect(DEFAULT_FORMAT.mirror).toBeDefined();
    expect(resolveFormat({}, pipe).format).toBe(DEFAULT_FORMAT.name);
    expect(TERMINAL_FORMAT.people).toBe(true);
    expect(resolveFormat({}, { stdoutIsTTY: true }).format).toBe(TERMINAL_FORMAT.name);
  });
});

describe.each(FORMATS.map((format) => [format.name, format] as const))('the %s module', (_, format) => {
  it('is a file format with extensions, or the people view without any', () => {
    expect(format.people).toBe(format.extensions.length === 0);
    if (format.people) expect([format.gzip, format.fileOnly, format.mirror, format.encoder]).toEqual([false, false, undefined, undefined]);
  });

  it('to stdout: written there, or refused with the words for a file-only format', () => {
    if (format.fileOnly) {
      expect(refusal(() => resolveFormat({ format: format.name }, pipe))).toBe(onlyToFile(format));
      expect(refusal(() => resolveFormat({ format: format.name, output: '-' }, pipe))).toBe(onlyToFile(format));
      expect(onlyToFile(format)).toBe(`${format.title} is written only to a file: add -o FILE${format.extensions[0]}`);
    } else {
      expect(resolveFormat({ format: format.name }, pipe)).toEqual({ format: format.name, gzip: false });
    }
  });

  it('in the lookups: written with its encoder or their own tables, else refused before its name is looked at', () => {
    const context = { stdoutIsTTY: false, export: false };
    if (inLookups(format)) {
      expect(format.people || typeof format.encoder === 'function').toBe(true);
      if (!format.fileOnly) expect(resolveFormat({ format: format.name }, context).format).toBe(format.name);
    } else {
      expect(refusal(() => resolveFormat({ format: format.name }, context))).toBe(onlyInExport(format));
      for (const extension of format.extensions) expect(refusal(() => resolveFormat({ output: `x${extension}` }, context))).toBe(onlyInExport(format));
    }
  });

  it('a shorthand is --<name>, and agrees with --format', () => {
    if (!format.shorthand) return;
    expect(resolveFormat({ [format.name]: true }, pipe).format).toBe(format.name);
    expect(resolveFormat({ [format.name]: true, format: format.name }, pipe).format).toBe(format.name);
  });

  it('fixed columns hold no field past them; free ones keep every field as sent', () => {
    if (format.holds) expect(format.fixedColumns).toBe(true);
  });

  it('a mirror format: a partition file of its first extension, the keys a mirror needs in its default fields, a --format sync reads', () => {
    if (!format.mirror) {
      expect(MIRROR_FORMATS).not.toContain(format);
      expect(() => parseSyncFlags({ out: 'dir', format: format.name }, Date.now())).toThrow(/^--format: sync writes/);
      return;
    }
    expect(MIRROR_FORMATS).toContain(format);
    expect(format.extensions.length).toBeGreaterThan(0);
    expect(format.mirror.defaultFields).toEqual(expect.arrayContaining(['id', 'completedAt', 'updatedAt']));
    for (const field of format.mirror.defaultFields) expect(format.holds ?? format.mirror.defaultFields).toContain(field);
    expect(parseSyncFlags({ out: 'dir', format: format.name }, Date.now())).toMatchObject({ format: format.name });
    for (const extension of format.extensions) {
      expect(parseSyncFlags({ out: 'dir', format: extension.slice(1) }, Date.now())).toMatchObject({ format: format.name });
    }
    if (format.gzip) expect(parseSyncFlags({ out: 'dir', format: `${format.name}.gz` }, Date.now())).toMatchObject({ format: format.name, gzip: true });
    else expect(() => parseSyncFlags({ out: 'dir', format: format.name, gzip: true }, Date.now())).toThrow(/compressed inside/);
  });
});
