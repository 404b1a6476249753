/** What runExport throws: the words of each error and what it carries for the shell. */
import { describe, expect, it } from 'vitest';
import { UsageError, WrappedError } from '../../src/api/errors.js';
import { ExportStoppedError, TargetFileError, TargetRefusedError } from '../../src/export/errors.js';
import { LIST_SWAP_FIELDS } from '../../src/api/types.js';
import { planExport } from '../../src/export/plan.js';

const saved = planExport({
  from: Date.parse('2026-11-02T00:00:00Z'),
  to: Date.parse('2026-11-02T03:00:00Z'),
  output: { file: 'out.jsonl', format: 'jsonl', gzip: false, fields: LIST_SWAP_FIELDS, excelSafe: false },
  concurrency: 4,
  now: Date.parse('2026-11-02T03:00:00Z'),
});

describe('TargetRefusedError', () => {
  it('a complete FILE', () => {
    const error = new TargetRefusedError('out.jsonl', { reason: 'exists' });
    expect(error).toBeInstanceOf(UsageError);
    expect(error.name).toBe('TargetRefusedError');
    expect(error.target).toBe('out.jsonl');
    expect(error.refusal).toEqual({ reason: 'exists' });
    expect(error.message).toBe('out.jsonl exists');
  });
  it('an unfinished export of this query', () => {
    const refusal = { reason: 'unfinished' as const, saved, windowsDone: 2, windowsTotal: 6, differences: [] };
    const error = new TargetRefusedError('out.jsonl', refusal);
    expect(error.refusal).toBe(refusal);
    expect(error.message).toBe('an unfinished export to out.jsonl exists (2/6 windows done)');
  });
  it('an unfinished export of another query, with the difference', () => {
    const error = new TargetRefusedError('out.jsonl', {
      reason: 'different',
      saved,
      windowsDone: 2,
      windowsTotal: 6,
      differences: [{ key: 'to', was: '03:00', now: '04:00' }],
    });
    expect(error.message).toBe('the unfinished export to out.jsonl is of a different query (to was "03:00", now "04:00")');
  });
});

describe('TargetFileError', () => {
  it("takes an Error's message and keeps it as the cause", () => {
    const cause = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    const error = new TargetFileError('out.jsonl', cause);
    expect(error).toBeInstanceOf(WrappedError);
    expect(error.name).toBe('TargetFileError');
    expect(error.target).toBe('out.jsonl');
    expect(error.message).toBe('EACCES: permission denied');
    expect(error.cause).toBe(cause);
  });
  it('words anything else thrown as text', () => {
    const error = new TargetFileError('out.jsonl', 42);
    expect(error.message).toBe('42');
    expect(error.cause).toBe(42);
  });
});

describe('ExportStoppedError', () => {
  it('carries the plan, what is saved and why it stopped', () => {
    const cause = new Error('socket hang up');
    const kept = { windowsDone: 2, windowsTotal: 6, partial: 'out.jsonl.partial' };
    const error = new ExportStoppedError(saved, kept, cause);
    expect(error).toBeInstanceOf(WrappedError);
    expect(error.name).toBe('ExportStoppedError');
    expect(error.plan).toBe(saved);
    expect(error.saved).toBe(kept);
    expect(error.message).toBe('socket hang up');
    expect(error.cause).toBe(cause);
  });
  it('words a cause that is no Error as text', () => {
    const error = new ExportStoppedError(saved, undefined, 'stopped');
    expect(error.saved).toBeUndefined();
    expect(error.message).toBe('stopped');
    expect(error.cause).toBe('stopped');
  });
});
