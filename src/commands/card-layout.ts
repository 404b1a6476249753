/**
 * The lines of a swap card: `label  value` pairs and the two legs side by side, fitted to a width. A value too long
 * for its line goes on below it, aligned under the values, every character kept: a hash is never cut (a Solana
 * signature, 88 characters, cannot stand whole on an 80-column line beside anything). A link's address is never
 * broken: broken, it would open the wrong page.
 */
import type { ChalkInstance } from 'chalk';
import { hyperlink } from '../cli/hyperlink.js';
import { stripControl } from '../output/sanitize.js';
import { textWidth } from '../output/table.js';

/** A value on the card; `url`: the page it opens. */
export interface Cell {
  text: string;
  url?: string;
  /** never broken over lines (an address to open or to copy) */
  whole?: boolean;
  /** colours the text (a status) */
  style?: (text: string) => string;
}

export interface CardLook {
  c: ChalkInstance;
  /** the line width to fit; a file's is unbounded */
  width: number;
  /** a link as a terminal hyperlink on its text (osc8), or as its address on a line of its own (plain) */
  links: 'osc8' | 'plain';
}

const GAP = '  ';
/** Narrower than this, a value's lines would be too short to read: the label column stays, the value overflows. */
const MIN_VALUE_WIDTH = 16;

/** `text` in lines of at most `width` characters: at spaces where it has them, else every `width` characters. */
export function breakText(text: string, width: number): string[] {
  if (textWidth(text) <= width) return [text];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (textWidth(candidate) <= width) line = candidate;
    else {
      if (line !== '') lines.push(line);
      const chars = [...word];
      while (chars.length > width) lines.push(chars.splice(0, width).join(''));
      line = chars.join('');
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** A short id shared by the pieces of one link (FNV-1a of its address), so a terminal treats them as one. */
function linkId(url: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < url.length; i++) hash = Math.imul(hash ^ url.charCodeAt(i), 0x01000193) >>> 0;
  return `swapx-${hash.toString(16)}`;
}

/** One piece of a cell as shown: styled, and a hyperlink where links are. */
function shown(piece: string, cell: Cell, look: CardLook): string {
  const text = cell.style ? cell.style(piece) : piece;
  return cell.url !== undefined && look.links === 'osc8' ? hyperlink(cell.url, text, linkId(cell.url)) : text;
}

/** `label  value` lines, labels aligned and dimmed; a long value continues below itself. */
export function pairLines(pairs: readonly (readonly [string, Cell])[], look: CardLook): string[] {
  const labelWidth = Math.max(0, ...pairs.map(([label]) => textWidth(label)));
  const valueWidth = Math.max(MIN_VALUE_WIDTH, look.width - labelWidth - GAP.length);
  return pairs.flatMap(([label, cell]) => {
    const text = stripControl(cell.text);
    const pieces = cell.whole ? [text] : breakText(text, valueWidth);
    return pieces.map((piece, i) => `${i === 0 ? look.c.dim(label.padEnd(labelWidth)) : ' '.repeat(labelWidth)}${GAP}${shown(piece, cell, look)}`.trimEnd());
  });
}

export interface LegRow {
  label: string;
  source: Cell;
  destination: Cell;
}

/** The legs as three columns (label, source, destination) under `titles`; undefined when they do not fit the width. */
export function sideBySide(rows: readonly LegRow[], titles: readonly [string, string], look: CardLook): string[] | undefined {
  const plain = rows.map((row) => [row.label, stripControl(row.source.text), stripControl(row.destination.text)] as const);
  const widths = [0, 1, 2].map((i) => Math.max(textWidth(['', ...titles][i]!), ...plain.map((cells) => textWidth(cells[i]!))));
  if (widths.reduce((sum, w) => sum + w, 0) + 2 * GAP.length > look.width) return undefined;
  const pad = (text: string, width: number) => ' '.repeat(Math.max(0, width - textWidth(text)));
  const header = [' '.repeat(widths[0]!), titles[0] + pad(titles[0], widths[1]!), titles[1]].join(GAP).trimEnd();
  const lines = rows.map((row, r) => {
    const [label, source, destination] = plain[r]!;
    return [look.c.dim(label + pad(label, widths[0]!)), shown(source, row.source, look) + pad(source, widths[1]!), shown(destination, row.destination, look)]
      .join(GAP)
      .trimEnd();
  });
  return [look.c.bold(header), ...lines];
}
