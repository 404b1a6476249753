/**
 * Injected failures and latency, drawn from a stream keyed by (seed, request
 * number) so a run against a fresh sandbox is repeatable. They never touch the
 * data: a request that is not faulted gets the same body at any fault rate.
 */
import { hash4, Rng } from './random.js';

/**
 * 429/500/503: that status with a problem body; reset: socket destroyed, no response; truncated: partial body,
 * then reset; slow: the normal answer, but only after slowMs (long enough to outlast a client's timeout).
 */
export const FAULT_KINDS = ['429', '500', '503', 'reset', 'truncated', 'slow'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** The kinds drawn when none are chosen: every kind but `slow`, which is drawn only when listed. */
export const DEFAULT_FAULT_KINDS: readonly FaultKind[] = ['429', '500', '503', 'reset', 'truncated'];

const TAG_FAULT = 0xfa;
const TAG_LATENCY = 0x1a7;
const TAG_TRACE = 0x7ace;

/**
 * The fault for request `n` (0-based), or undefined for a normal answer. Which requests fault depends
 * only on (seed, n, rate); `kinds` only decides what each of those faults is.
 */
export function pickFault(seed: number, n: number, rate: number, kinds: readonly FaultKind[] = DEFAULT_FAULT_KINDS): FaultKind | undefined {
  if (!(rate > 0) || kinds.length === 0) return undefined;
  if (hash4(seed, n, 0, TAG_FAULT) / 4294967296 >= rate) return undefined;
  return kinds[hash4(seed, n, 1, TAG_FAULT) % kinds.length];
}

/** Checks a list of fault kinds: known names, at least one; duplicates removed, order kept. */
export function checkFaultKinds(kinds: readonly string[]): FaultKind[] {
  const unknown = kinds.filter((kind) => !(FAULT_KINDS as readonly string[]).includes(kind));
  if (unknown.length > 0) throw new RangeError(`unknown fault kind ${unknown.map((k) => `'${k}'`).join(', ')} (known: ${FAULT_KINDS.join(', ')})`);
  if (kinds.length === 0) throw new RangeError(`no fault kind given (known: ${FAULT_KINDS.join(', ')})`);
  return [...new Set(kinds as readonly FaultKind[])];
}

/** Delay for request `n`: the mean ±20 %, uniformly. */
export function latencyFor(seed: number, n: number, meanMs: number): number {
  if (!(meanMs > 0)) return 0;
  return Math.round(meanMs * (0.8 + (0.4 * hash4(seed, n, 0, TAG_LATENCY)) / 4294967296));
}

/** A W3C traceparent-style id, as ASP.NET puts in its error bodies. */
export function traceIdFor(seed: number, n: number): string {
  const r = Rng.of(seed, n, 0, TAG_TRACE);
  return `00-${r.hex(32)}-${r.hex(16)}-00`;
}
