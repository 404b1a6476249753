/**
 * The windows of a sync step (step.ts): its three passes, planned from the saved cursors, and taking turns.
 */
import { MAX_WINDOW_MS } from '../api/types.js';
import { planWindows, type Window } from '../windows/plan.js';
import type { MirrorQuery, MirrorState } from './store.js';

/** The passes of a step (see above). */
export type SyncPass = 'rescan' | 'completions' | 'updates';

export interface SyncWindow extends Window {
  filter: 'Completed' | 'Updated';
  pass: SyncPass;
}

export interface StepPlan {
  windows: SyncWindow[];
  rescanFrom: number | undefined;
  /** no row is held yet: the Completed pass covers the range and no Updated pass is needed */
  first: boolean;
}

/**
 * Where the Updated pass ends: the present, and a second past it. The present comes from the server's Date header,
 * which names its second while its clock may be up to a second on; an update made in that second must come in this
 * run, as the completion cursor the run sets passes the swap. (Without a present past `end`, `end`.)
 */
function updatesTo(end: number, present: number): number {
  return present > end ? present + 1000 : end;
}

/** The windows of the passes, one of each in turn while each has windows left. */
function interleave(passes: readonly (readonly SyncWindow[])[]): SyncWindow[] {
  const out: SyncWindow[] = [];
  const longest = Math.max(0, ...passes.map((pass) => pass.length));
  for (let i = 0; i < longest; i++) for (const pass of passes) if (i < pass.length) out.push(pass[i]!);
  return out;
}

/**
 * Plans the step's windows, indexed in order. A re-scan looks for swaps that became visible late, so it starts
 * `lag` before where the last one reached, and never before `lag` ahead of when that one ran (a swap completed
 * earlier was visible then), nor before where a re-scan cut short got to: a backfill killed again and again
 * never fetches twice what it made durable.
 */
export function planStep(state: MirrorState<MirrorQuery>, until: number, end: number, lagMs: number, rescan: boolean, present = end): StepPlan {
  const first = state.cursor === state.since && state.updatedCursor === state.since;
  const visibleThen = state.rescannedAt === undefined ? Number.NEGATIVE_INFINITY : state.rescannedAt - lagMs;
  const rescanStart = Math.max(state.since, state.rescanBase - lagMs, visibleThen, state.rescannedTo ?? Number.NEGATIVE_INFINITY);
  const rescanFrom = rescan && lagMs > 0 ? Math.min(state.cursor, rescanStart) : state.cursor;
  const tag = (filter: SyncWindow['filter'], pass: SyncPass) => (w: Window) => ({ ...w, filter, pass });
  const windows = interleave([
    // Planned from the cursor, so the cursor is a window edge.
    planWindows(rescanFrom, state.cursor, MAX_WINDOW_MS).map(tag('Completed', 'rescan')),
    planWindows(state.cursor, until, MAX_WINDOW_MS).map(tag('Completed', 'completions')),
    first ? [] : planWindows(state.updatedCursor, updatesTo(end, present), MAX_WINDOW_MS).map(tag('Updated', 'updates')),
  ]).map((w, index) => ({ ...w, index }));
  return { windows, rescanFrom: rescanFrom < state.cursor ? rescanFrom : undefined, first };
}
