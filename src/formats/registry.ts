/**
 * The formats swapx writes, in the order help and messages list them: the one list of them. Help, completion,
 * the checks of --format and -o, the sync state and the export manifest read it. A new format is its module
 * beside this file and its line here.
 */
import { csv } from './csv.js';
import type { Format } from './format.js';
import { json } from './json.js';
import { jsonl } from './jsonl.js';
import { parquet } from './parquet.js';
import { table } from './table.js';

export const FORMATS = [table, json, jsonl, csv, parquet] as const;
export type FormatName = (typeof FORMATS)[number]['name'];

/** What goes to a pipe, or to a file whose name names no format, and what a new mirror keeps. */
export const DEFAULT_FORMAT: Format<FormatName> = jsonl;
/** What a terminal shows when no format is asked for. */
export const TERMINAL_FORMAT: Format<FormatName> = table;

/** The format of this name, exactly as --format's check left it; undefined for any other word. */
export function formatNamed(name: string): Format<FormatName> | undefined {
  return FORMATS.find((format) => format.name === name);
}

/** A format swapx recorded or checked before (a plan's, a state's). */
export function formatOf(name: FormatName): Format<FormatName> {
  return formatNamed(name)!;
}

/** The format an -o extension picks ('.ndjson' → jsonl), lower case, with its dot. */
export function formatOfExtension(extension: string): Format<FormatName> | undefined {
  return FORMATS.find((format) => format.extensions.includes(extension));
}

/** The formats a sync mirror may keep its partitions in. */
export const MIRROR_FORMATS: readonly Format<FormatName>[] = FORMATS.filter((format) => format.mirror !== undefined);

/** The lookups (chains, tokens, …) can write it: the people view (each lays its own table out), or a format with a whole-result encoder. */
export function inLookups(format: Format): boolean {
  return format.people || format.encoder !== undefined;
}
