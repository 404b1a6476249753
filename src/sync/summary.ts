/** What a sync step reports on stderr: one JSON line for monitoring (--summary-json), or a short line for people. */
import { formatElapsed, formatUtc } from '../util/time.js';
import type { StepResult } from './step.js';

/**
 * `{"event":"sync-step","newSwaps":N,"lateSwaps":N,"cursor":"ISO","windows":N,"retries":N,"elapsedMs":N,"parts":[...],"complete":true}`:
 * the keys are a contract, always present, in this order.
 */
export function stepJson(result: StepResult): string {
  return JSON.stringify({
    event: 'sync-step',
    newSwaps: result.newSwaps,
    lateSwaps: result.lateSwaps,
    cursor: formatUtc(result.cursor),
    windows: result.windows,
    retries: result.retries,
    elapsedMs: result.elapsedMs,
    parts: result.parts,
    complete: result.complete,
  });
}

const num = (n: number) => n.toLocaleString('en-US');

export function stepText(result: StepResult): string {
  const swaps =
    result.newSwaps + result.lateSwaps === 0
      ? 'No new swaps'
      : `Synced ${num(result.newSwaps)} new and ${num(result.lateSwaps)} late swaps into ${result.parts.length === 1 ? '1 part' : `${result.parts.length} parts`}`;
  const rescan = result.rescanFrom === undefined ? '' : `, re-scanned from ${formatUtc(result.rescanFrom)}`;
  const done = result.complete ? num(result.windows) : `${num(result.windows)}/${num(result.windowsPlanned)}`;
  const windows = `${done} ${result.complete && result.windows === 1 ? 'window' : 'windows'}`;
  return `${swaps}; cursor ${formatUtc(result.cursor)}${rescan}; ${windows}, ${num(result.retries)} retries, ${formatElapsed(result.elapsedMs)}`;
}
