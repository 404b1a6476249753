/**
 * Injected failures and latency, drawn from a stream keyed by (seed, request
 * number) so a run against a fresh sandbox is repeatable. They never touch the
 * data: a request that is not faulted gets the same body at any fault rate.
 */
import { hash4, Rng } from './random.js';

export const FAULT_KINDS = ['429', '500', '503', 'reset', 'truncated'] as const;
/** 429/500/503: that status with a problem body; reset: socket destroyed, no response; truncated: partial body, then reset. */
export type FaultKind = (typeof FAULT_KINDS)[number];

const TAG_FAULT = 0xfa;
const TAG_LATENCY = 0x1a7;
const TAG_TRACE = 0x7ace;

/** The fault for request `n` (0-based), or undefined for a normal answer. */
export function pickFault(seed: number, n: number, rate: number): FaultKind | undefined {
  if (!(rate > 0)) return undefined;
  if (hash4(seed, n, 0, TAG_FAULT) / 4294967296 >= rate) return undefined;
  return FAULT_KINDS[hash4(seed, n, 1, TAG_FAULT) % FAULT_KINDS.length];
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
