/**
 * A client whose answers a test chooses, window by window, in-process: no server, so an engine test runs in
 * milliseconds and can send what the sandbox never does (rows outside the window, conflicts, control characters).
 */
import type { SwapxClient } from '../../src/api/client.js';
import type { Swap } from '../../src/api/types.js';
import { swapsInWindow } from '../../src/sandbox/index.js';

export const BASE = Date.parse('2026-11-02T00:00:00Z');
export const MIN = 60_000;
const sample = swapsInWindow({ from: BASE, to: BASE + 10 * MIN, now: BASE + 86_400_000 }, { seed: 13, swapsPerHour: 500 })[0]!;

/** A valid swap withdrawn `minutes` after BASE. */
export function swap(id: string, minutes: number, extra: Partial<Swap> = {}): Swap {
  return { ...sample, id, withdrawnAt: new Date(BASE + minutes * MIN).toISOString(), ...extra };
}

/**
 * What the n-th 10-minute window answers when the server misbehaves in every way a tally counts: a swap with balance
 * changes kept, one exactly on the window's end (the next window's: dropped here), one outside the window asked for,
 * and one id twice with different content (the later update kept, with balance changes).
 */
export function troubledWindow(n: number): Swap[] {
  const at = n * 10;
  return [
    swap(`k${n}`, at + 1, { balanceChanges: [] }),
    swap(`e${n}`, at + 10),
    swap(`o${n}`, at + 30),
    swap(`c${n}`, at + 2, { updatedAt: '2026-11-02T01:00:00Z' }),
    swap(`c${n}`, at + 2, { updatedAt: '2026-11-02T02:00:00Z', balanceChanges: [] }),
  ];
}

export interface Served {
  client: SwapxClient;
  /** the From of each request, in order */
  asked: number[];
  /** each response body */
  bodies: Buffer[];
  /** most requests in flight at once */
  peak: number;
}

/**
 * A client that answers a window's request with `rows(from)` (swaps, or an Error to throw), after `delayMs`.
 * Each body is a buffer of its own (not a part of Node's pool), as a response body is.
 */
export function serve(rows: (from: number) => readonly Swap[] | Error, delayMs = 0): Served {
  const served: Served = { client: undefined as unknown as SwapxClient, asked: [], bodies: [], peak: 0 };
  let inFlight = 0;
  const http = {
    fullPath: (relative: string) => relative,
    getJsonBytes: async (relative: string) => {
      const from = Date.parse(new URLSearchParams(relative.split('?')[1]).get('From')!);
      served.asked.push(from);
      inFlight += 1;
      served.peak = Math.max(served.peak, inFlight);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      inFlight -= 1;
      const answer = rows(from);
      if (answer instanceof Error) throw answer;
      const text = JSON.stringify(answer);
      const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
      bytes.write(text);
      served.bodies.push(bytes);
      return { bytes, notJson: () => new Error('not JSON') };
    },
  };
  served.client = { http } as unknown as SwapxClient;
  return served;
}
