/** A range cut into windows of at most 30 minutes aligned to its start (the last one shorter): what an export and a sync step fetch. */

export interface Window {
  index: number;
  /** inclusive, epoch ms */
  from: number;
  /** exclusive for the export (the API includes it; the next window owns it), epoch ms */
  to: number;
}

export function planWindows(from: number, to: number, windowMs: number): Window[] {
  const windows: Window[] = [];
  for (let start = from, index = 0; start < to; start += windowMs, index += 1) {
    windows.push({ index, from: start, to: Math.min(start + windowMs, to) });
  }
  return windows;
}
