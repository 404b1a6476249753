/** What a sync step reports on stderr: one JSON line for monitoring (--summary-json), or a short line for people. */
import { formatElapsed, formatUtc } from '../../util/time.js';
import type { StepResult } from '../../sync/step.js';

/** Every --summary-json line says when it was written: a log of many runs is read by time. */
function line(event: string, now: number, fields: Record<string, unknown>): string {
  return JSON.stringify({ event, time: new Date(now).toISOString(), ...fields });
}

/**
 * `{"event":"sync-step","time":"ISO","newSwaps":N,"lateSwaps":N,"updatedSwaps":N,"outsideWindow":N,"cursor":"ISO","updatedCursor":"ISO",
 * "windows":N,"requests":N,"retries":N,"elapsedMs":N,"parts":[...],"complete":true,"unfitValues":N}`: the keys are a contract, always
 * present, in this order (a key added later goes last).
 */
export function stepJson(result: StepResult, now: number): string {
  return line('sync-step', now, {
    newSwaps: result.newSwaps,
    lateSwaps: result.lateSwaps,
    updatedSwaps: result.updatedSwaps,
    outsideWindow: result.outsideWindow,
    cursor: formatUtc(result.cursor),
    updatedCursor: formatUtc(result.updatedCursor),
    windows: result.windows,
    requests: result.requests,
    retries: result.retries,
    elapsedMs: result.elapsedMs,
    parts: result.parts,
    complete: result.complete,
    unfitValues: result.unfitValues,
  });
}

/** `{"event":"sync-moved","time":"ISO","from":"URL","to":"URL"}`: the mirror follows its API to a new address. */
export function movedJson(from: string, to: string, now: number): string {
  return line('sync-moved', now, { from, to });
}

/** `{"event":"sync-warning","time":"ISO","message":"…"}` (or sync-info): what would be a plain line without --summary-json. */
export function noteJson(event: 'sync-warning' | 'sync-info', message: string, now: number): string {
  return line(event, now, { message });
}

/** `{"event":"sync-failed","time":"ISO","exitCode":N,"error":"WindowFailedError","message":"…"}`: the run's last line when it fails. */
export function failureJson(now: number, exitCode: number, error: unknown, message: string): string {
  const name = error instanceof Error ? error.name : typeof error;
  return line('sync-failed', now, { exitCode, error: name, message });
}

const num = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many: string) => `${num(n)} ${n === 1 ? one : many}`;

/** `into` names what the rows went into: partitions of a folder, or a table. */
export function stepText(result: StepResult, into: 'partition' | 'table' = 'partition'): string {
  const swaps =
    result.newSwaps + result.lateSwaps + result.updatedSwaps === 0
      ? 'No new or updated swaps'
      : `Synced ${num(result.newSwaps)} new, ${num(result.lateSwaps)} late and ${num(result.updatedSwaps)} updated swaps into ${plural(result.parts.length, into, `${into}s`)}`;
  const rescan = result.rescanFrom === undefined ? '' : `, re-scanned from ${formatUtc(result.rescanFrom)}`;
  const done = result.complete ? num(result.windows) : `${num(result.windows)}/${num(result.windowsPlanned)}`;
  const windows = `${done} ${result.complete && result.windows === 1 ? 'window' : 'windows'}`;
  const outside = result.outsideWindow > 0 ? `, ${num(result.outsideWindow)} returned outside their window` : '';
  const unfit = result.unfitValues > 0 ? `, ${plural(result.unfitValues, 'value', 'values')} kept aside` : '';
  return `${swaps}; cursor ${formatUtc(result.cursor)}, updates from ${formatUtc(result.updatedCursor)}${rescan}; ${windows}, ${plural(result.requests, 'request', 'requests')}, ${num(result.retries)} retries${outside}${unfit}, ${formatElapsed(result.elapsedMs)}`;
}
