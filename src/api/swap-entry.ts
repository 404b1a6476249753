/**
 * A swap of a window as an export reads it (client.forEachEntry): what its
 * ordering needs (id and filter time), its bytes when they are canonical,
 * and the parsed object only when asked for. A swap whose bytes were
 * checked without JSON.parse (swap-scan.ts) is never parsed by a JSON
 * Lines export.
 */
import type { Swap } from './types.js';
import { utf8Text } from './json-elements.js';

export interface SwapEntry {
  /** the id as sent (null when null, undefined when absent) */
  readonly id: unknown;
  /** the query's filter time field as sent: a string, or whatever else was there */
  readonly time: unknown;
  /** the bytes as sent, when they are exactly what JSON.stringify(swap()) writes */
  readonly raw: Buffer | undefined;
  swap(): Swap;
}

/** A swap checked on its bytes: parsed only if asked. */
export class ScannedEntry implements SwapEntry {
  constructor(
    private readonly bytes: Buffer,
    private readonly start: number,
    private readonly end: number,
    readonly id: string | null | undefined,
    readonly time: string | undefined,
  ) {}

  get raw(): Buffer {
    return this.bytes.subarray(this.start, this.end);
  }

  swap(): Swap {
    return JSON.parse(utf8Text(this.bytes, this.start, this.end)) as Swap;
  }
}

/** A swap already parsed (and checked). */
export class ParsedEntry implements SwapEntry {
  readonly id: unknown;
  readonly time: unknown;

  constructor(
    private readonly parsed: Swap,
    readonly raw: Buffer | undefined,
    timeField: keyof Swap,
  ) {
    this.id = parsed.id;
    this.time = parsed[timeField];
  }

  swap(): Swap {
    return this.parsed;
  }
}
