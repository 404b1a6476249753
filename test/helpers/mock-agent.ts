/** The HTTP client's unit tests: an undici MockAgent per test, no real network, handed in as the `dispatcher`. */
import { afterEach, beforeEach } from 'vitest';
import { MockAgent } from 'undici';

export const MOCK_BASE = 'https://api.example.test';

/** A fresh agent before each test of the enclosing block, closed after it; the getter is valid inside tests. */
export function useMockAgent(): { readonly agent: MockAgent } {
  let current: MockAgent | undefined;
  beforeEach(() => {
    current = new MockAgent();
    current.disableNetConnect();
  });
  afterEach(async () => {
    await current?.close();
  });
  return {
    get agent() {
      if (!current) throw new Error('no mock agent outside a test');
      return current;
    },
  };
}
