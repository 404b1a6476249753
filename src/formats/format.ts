/**
 * A format is one module (src/formats/<name>.ts): what it is — the facts help, completion and the checks of
 * --format and -o read — and how it is written. The registry (registry.ts) lists the modules; nothing else
 * keeps a list of formats, nor branches on a format's name.
 */
import type { Encoder, EncodeOptions } from '../output/encode.js';
import type { PartitionCodec } from './stored-row.js';
import type { ExportStart, ExportWriter, ExportWriterOptions } from './writer.js';

/** What a mirror's partitions are written with: its gzip and fields (the state's), and every field a swap has. */
export interface PartitionQuery {
  gzip: boolean;
  fields: readonly string[];
  allFields: readonly string[];
}

export interface Format<Name extends string = string> {
  /** as --format takes it, and as the export manifest and the sync state record it */
  readonly name: Name;
  /** as messages name it: "Parquet is written only to a file" */
  readonly title: string;
  /** the -o extensions that pick it, with the dot, the usual one first (a sync partition's); none: no file's format (the table) */
  readonly extensions: readonly string[];
  /** a trailing .gz gzips the file; false: compressed inside (Parquet), or a terminal's view (the table) */
  readonly gzip: boolean;
  /** only ever written to -o FILE, never to stdout (Parquet: its footer indexes every row group) */
  readonly fileOnly: boolean;
  /** the view for people (the table): the default on a terminal; each lookup lays its own out */
  readonly people: boolean;
  /** `--<name>` is a shorthand for `--format <name>` */
  readonly shorthand: boolean;
  /** its columns are a fixed list: what the API sends past them (balanceChanges, fields the spec does not name) is left out, and said */
  readonly fixedColumns: boolean;
  /** --excel-safe applies: its cells are opened by spreadsheets, which may run them */
  readonly spreadsheet: boolean;
  /** its bytes hold no control character a terminal would act on (JSON escapes them; the table strips them) */
  readonly terminalSafe: boolean;
  /** the fields it can hold when its schema fixes them (Parquet: a list export's); undefined: any field of a swap */
  readonly holds?: readonly string[];
  /** a sync mirror may keep its partitions in it */
  readonly mirror?: {
    /** a new mirror's fields, when --fields is not given */
    readonly defaultFields: readonly string[];
    /** how a partition file of a mirror's query is written and read back (its code loads here, when used) */
    codec(query: PartitionQuery): Promise<PartitionCodec>;
  };
  /**
   * The encoder of a whole small result (the lookups: chains, tokens, …). A format with none, unless it is the
   * people view, is written only by an export and a mirror (Parquet: its columns are a swap's).
   */
  encoder?(options: EncodeOptions): Encoder;
  /** a whole result as people read it on a terminal (JSON indented, as gh --json is) */
  shown?(text: string): string;
  /** The writer of an export from `start` (export/exporter.ts drives it); a format's heavy code loads here, when used. */
  exportWriter(options: ExportWriterOptions, start: ExportStart): Promise<ExportWriter>;
  /** files its writer keeps beside FILE.partial until FILE is complete (Parquet's row groups): removed with an export that saved nothing */
  sideFiles?(partial: string): string[];
  /** Refuses (UsageError, nothing changed) a partial export its writer cannot resume from this state: said before the run says it resumes. */
  checkResume?(partial: string, formatState: string | undefined): Promise<void>;
}
