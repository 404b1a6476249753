/** What a check refuses with: the UsageError's message (exit 2), or the test fails. */
import { expect } from 'vitest';
import { UsageError } from '../../src/api/errors.js';

export function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}
