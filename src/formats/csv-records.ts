/** Reading back the CSV partitions a sync wrote (RFC 4180, the header names the columns), each record with its raw text. */

/**
 * Calls `onRecord` with each record's fields and its text as written (line break included), so a row read
 * back is written again byte for byte. Fields may be quoted and hold commas, quotes ("") and line breaks.
 * Scans with indexOf rather than a character at a time: a day's partition is tens of megabytes.
 */
export function readCsvRecords(text: string, onRecord: (record: string[], raw: string) => void): void {
  let i = 0;
  const n = text.length;
  while (i < n) {
    const start = i;
    const record: string[] = [];
    for (;;) {
      let field: string;
      if (text.charCodeAt(i) === 34 /* " */) {
        let from = i + 1;
        field = '';
        for (;;) {
          const quote = text.indexOf('"', from);
          if (quote === -1) throw new Error('a quoted CSV field is not closed');
          field += text.slice(from, quote);
          if (text.charCodeAt(quote + 1) === 34) {
            field += '"';
            from = quote + 2;
            continue;
          }
          i = quote + 1;
          break;
        }
      } else {
        let end = i;
        while (end < n) {
          const c = text.charCodeAt(end);
          if (c === 44 || c === 10 || c === 13) break;
          end += 1;
        }
        field = text.slice(i, end);
        i = end;
      }
      record.push(field);
      const c = text.charCodeAt(i);
      if (c === 44 /* , */) {
        i += 1;
        continue;
      }
      if (c === 13 /* \r */) i += 1;
      if (text.charCodeAt(i) === 10 /* \n */) i += 1;
      break;
    }
    // A blank line is no record.
    if (record.length > 1 || record[0] !== '') onRecord(record, text.slice(start, i));
  }
}
