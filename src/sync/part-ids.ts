/**
 * Reading back which swaps a part file holds (id and completedAt), for crash
 * recovery: JSON Lines or CSV (RFC 4180, the header names the columns),
 * gzipped or not. Streams, so a large part is never held whole.
 */
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { parseApiTime } from '../util/time.js';

export interface PartRow {
  id: string;
  /** epoch ms; NaN when the row has no readable completedAt */
  completedMs: number;
}

/** An incremental RFC 4180 reader: fields may be quoted, hold commas, quotes ("") and line breaks. */
export class CsvRecords {
  private field = '';
  private record: string[] = [];
  private state: 'start' | 'plain' | 'quoted' | 'quote' = 'start';

  constructor(private readonly onRecord: (record: string[]) => void) {}

  push(text: string): void {
    for (const c of text) {
      if (this.state === 'quoted') {
        if (c === '"') this.state = 'quote';
        else this.field += c;
        continue;
      }
      if (this.state === 'quote') {
        if (c === '"') {
          this.field += '"';
          this.state = 'quoted';
          continue;
        }
        this.state = 'plain';
      }
      if (c === ',') this.endField();
      else if (c === '\n') this.endRecord();
      else if (c === '\r') continue;
      else if (c === '"' && this.state === 'start') this.state = 'quoted';
      else {
        this.field += c;
        this.state = 'plain';
      }
    }
  }

  end(): void {
    if (this.field !== '' || this.record.length > 0 || this.state === 'quote') this.endRecord();
  }

  private endField(): void {
    this.record.push(this.field);
    this.field = '';
    this.state = 'start';
  }

  private endRecord(): void {
    this.endField();
    const record = this.record;
    this.record = [];
    this.onRecord(record);
  }
}

function rowOf(id: unknown, completedAt: unknown): PartRow | undefined {
  if (typeof id !== 'string' || id === '') return undefined;
  return { id, completedMs: typeof completedAt === 'string' ? parseApiTime(completedAt) : Number.NaN };
}

/** Every row of a part that has an id. Throws when the file cannot be read or parsed. */
export async function readPartRows(file: string): Promise<PartRow[]> {
  const rows: PartRow[] = [];
  const gz = file.endsWith('.gz');
  const csv = /\.csv(\.gz)?$/.test(file);
  let header: string[] | undefined;
  const csvReader = new CsvRecords((record) => {
    if (!header) {
      header = record;
      if (!header.includes('id')) throw new Error(`${file} has no id column`);
      return;
    }
    const row = rowOf(record[header.indexOf('id')], record[header.indexOf('completedAt')]);
    if (row) rows.push(row);
  });
  let rest = '';
  const onLine = (line: string) => {
    if (line.trim() === '') return;
    const record = JSON.parse(line) as { id?: unknown; completedAt?: unknown };
    const row = rowOf(record.id, record.completedAt);
    if (row) rows.push(row);
  };

  const source = createReadStream(file);
  const stream = gz ? source.pipe(createGunzip()) : source;
  if (gz) source.on('error', (error) => stream.destroy(error));
  stream.setEncoding('utf8');
  for await (const chunk of stream as AsyncIterable<string>) {
    if (csv) {
      csvReader.push(chunk);
      continue;
    }
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    lines.forEach(onLine);
  }
  if (csv) csvReader.end();
  else onLine(rest);
  return rows;
}
