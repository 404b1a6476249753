/**
 * RFC 4180 CSV, written by hand for speed: a cell is quoted only when it holds
 * a quote, comma, CR or LF, with quotes doubled; records end in LF. These are
 * exactly csv-stringify's rules at its defaults (a property test holds the two
 * byte for byte), at a fraction of its cost per cell on a million-row export.
 */

const NEEDS_QUOTES = /[",\r\n]/;

/** One cell's text as it stands in the file. */
export function csvField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Records of cell texts as CSV lines, each ending in LF. */
export function csvLines(rows: readonly (readonly string[])[]): string {
  let out = '';
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) {
      if (i > 0) out += ',';
      out += csvField(row[i]!);
    }
    out += '\n';
  }
  return out;
}
