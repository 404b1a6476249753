/** Reading back the CSV partitions a sync wrote (RFC 4180, the header names the columns), each record with its raw text. */

/** An incremental RFC 4180 reader: fields may be quoted, hold commas, quotes ("") and line breaks. */
export class CsvRecords {
  private field = '';
  private record: string[] = [];
  private state: 'start' | 'plain' | 'quoted' | 'quote' = 'start';
  /** the record's text as read, line break included: a row read back is written again byte for byte */
  private raw = '';

  constructor(private readonly onRecord: (record: string[], raw: string) => void) {}

  push(text: string): void {
    for (const c of text) {
      this.raw += c;
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
    const raw = this.raw;
    this.record = [];
    this.raw = '';
    this.onRecord(record, raw);
  }
}
