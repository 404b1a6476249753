/** What a sync step reports: the JSON line's keys in their contract order, and the line for people, word for word. */
import { describe, expect, it } from 'vitest';
import type { StepResult } from '../../../src/sync/step.js';
import { failureJson, movedJson, noteJson, stepJson, stepText } from '../../../src/commands/sync/render.js';

const T = Date.parse('2026-11-10T12:00:00Z');
const result = (change: Partial<StepResult> = {}): StepResult => ({
  newSwaps: 1234,
  lateSwaps: 2,
  updatedSwaps: 3,
  outsideWindow: 0,
  windows: 4,
  windowsPlanned: 4,
  requests: 5,
  retries: 1,
  elapsedMs: 12_345,
  parts: ['date=2026-11-10/part.jsonl', 'date=2026-11-09/part.jsonl'],
  cursor: T,
  updatedCursor: T - 60_000,
  rescanFrom: undefined,
  complete: true,
  conflicts: 0,
  withBalanceChanges: 0,
  unfitValues: 0,
  unfit: [],
  leftOut: [],
  ...change,
});

describe('stepJson', () => {
  it('writes every key, in the contract order', () => {
    expect(stepJson(result({ outsideWindow: 7, complete: false, unfitValues: 3 }), T + 1500)).toBe(
      '{"event":"sync-step","time":"2026-11-10T12:00:01.500Z","newSwaps":1234,"lateSwaps":2,"updatedSwaps":3,"outsideWindow":7,"cursor":"2026-11-10T12:00:00Z","updatedCursor":"2026-11-10T11:59:00Z",' +
        '"windows":4,"requests":5,"retries":1,"elapsedMs":12345,"parts":["date=2026-11-10/part.jsonl","date=2026-11-09/part.jsonl"],"complete":false,"unfitValues":3}',
    );
  });
});

describe('stepText', () => {
  it('names a table when the rows went into one', () => {
    expect(stepText(result({ parts: ['public.xflow_swaps'] }), 'table')).toMatch(/^Synced 1,234 new, 2 late and 3 updated swaps into 1 table;/);
  });

  it('counts new, late and updated swaps into partitions, with the cursors, windows, requests, retries and time', () => {
    expect(stepText(result())).toBe(
      'Synced 1,234 new, 2 late and 3 updated swaps into 2 partitions; cursor 2026-11-10T12:00:00Z, updates from 2026-11-10T11:59:00Z; 4 windows, 5 requests, 1 retries, 12.3s',
    );
  });

  it('says when nothing changed, names a re-scan and swaps outside their window, and one of each in the singular', () => {
    expect(
      stepText(
        result({
          newSwaps: 0,
          lateSwaps: 0,
          updatedSwaps: 0,
          parts: [],
          windows: 1,
          windowsPlanned: 1,
          requests: 1,
          retries: 0,
          rescanFrom: T - 3_600_000,
          outsideWindow: 1200,
          elapsedMs: 850,
        }),
      ),
    ).toBe(
      'No new or updated swaps; cursor 2026-11-10T12:00:00Z, updates from 2026-11-10T11:59:00Z, re-scanned from 2026-11-10T11:00:00Z; 1 window, 1 request, 0 retries, 1,200 returned outside their window, 850ms',
    );
    expect(stepText(result({ newSwaps: 0, lateSwaps: 0, updatedSwaps: 1, parts: ['p'] }))).toMatch(
      /^Synced 0 new, 0 late and 1 updated swaps into 1 partition;/,
    );
    expect(stepText(result({ newSwaps: 0, lateSwaps: 1, updatedSwaps: 0 }))).toMatch(/^Synced 0 new, 1 late/);
    // Counts that a difference would cancel: only their sum says whether anything was synced.
    expect(stepText(result({ newSwaps: 1, lateSwaps: 1, updatedSwaps: 0 }))).toMatch(/^Synced 1 new, 1 late and 0 updated swaps/);
    expect(stepText(result({ newSwaps: 0, lateSwaps: 1, updatedSwaps: 1 }))).toMatch(/^Synced 0 new, 1 late and 1 updated swaps/);
  });

  it('counts the values a store kept aside, one and many', () => {
    expect(stepText(result({ unfitValues: 1, elapsedMs: 850 }))).toMatch(/, 1 retries, 1 value kept aside, 850ms$/);
    expect(stepText(result({ unfitValues: 1200, outsideWindow: 2, elapsedMs: 850 }))).toMatch(
      /, 1 retries, 2 returned outside their window, 1,200 values kept aside, 850ms$/,
    );
  });

  it('an incomplete step tells the windows done from those planned', () => {
    expect(stepText(result({ complete: false, windows: 1, windowsPlanned: 1200 }))).toContain('; 1/1,200 windows, ');
    expect(stepText(result({ complete: false, windows: 1, windowsPlanned: 1 }))).toContain('; 1/1 windows, ');
  });
});

describe('the other JSON lines', () => {
  it('sync-moved: from and to', () => {
    expect(movedJson('https://old.test', 'https://new.test', T)).toBe(
      '{"event":"sync-moved","time":"2026-11-10T12:00:00.000Z","from":"https://old.test","to":"https://new.test"}',
    );
  });

  it('sync-warning and sync-info: the message', () => {
    expect(noteJson('sync-warning', 'careful "here"', T)).toBe('{"event":"sync-warning","time":"2026-11-10T12:00:00.000Z","message":"careful \\"here\\""}');
    expect(noteJson('sync-info', 'fyi', T)).toBe('{"event":"sync-info","time":"2026-11-10T12:00:00.000Z","message":"fyi"}');
  });

  it("sync-failed: the exit code, the error's name (or its type) and the message", () => {
    class WindowFailedError extends Error {
      override name = 'WindowFailedError';
    }
    expect(failureJson(T, 1, new WindowFailedError('x'), 'window failed')).toBe(
      '{"event":"sync-failed","time":"2026-11-10T12:00:00.000Z","exitCode":1,"error":"WindowFailedError","message":"window failed"}',
    );
    expect(failureJson(T, 2, 'thrown text', 'odd')).toBe(
      '{"event":"sync-failed","time":"2026-11-10T12:00:00.000Z","exitCode":2,"error":"string","message":"odd"}',
    );
  });
});

describe('stepText, the windows', () => {
  it('one complete window is one window; none are windows', () => {
    expect(stepText(result({ windows: 1, windowsPlanned: 1 }))).toContain('; 1 window, ');
    expect(stepText(result({ windows: 0, windowsPlanned: 0 }))).toContain('; 0 windows, ');
    expect(stepText(result({ windows: 1234, windowsPlanned: 1234, requests: 1 }))).toContain('; 1,234 windows, 1 request, ');
  });
});
