/** What a saved piece of work belongs to: a query's fingerprint, and what differs when it does not match. */
import { createHash } from 'node:crypto';

/** Stable whatever the key order: sha-256 of the sorted entries, 32 hex characters. */
export function fingerprint<Q extends object>(query: Q): string {
  const canonical = JSON.stringify(
    Object.keys(query)
      .sort()
      .map((key) => [key, query[key as keyof Q]]),
  );
  return createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}

/** One setting of a saved query that differs from this run's: its key, the saved value and the wanted one. */
export interface Difference {
  key: string;
  was: unknown;
  now: unknown;
}

/** What differs between a saved query and the wanted one, in the order of `keys`. */
export function differences<Q extends object>(saved: Q, wanted: Q, keys: readonly (keyof Q & string)[]): Difference[] {
  return keys.filter((key) => JSON.stringify(saved[key]) !== JSON.stringify(wanted[key])).map((key) => ({ key, was: saved[key], now: wanted[key] }));
}

/** "filter was null, now "Completed"; gzip was false, now true": each key as `labels` names it (else the key itself). */
export function describeDifferences(list: readonly Difference[], labels: Readonly<Record<string, string>> = {}): string {
  return list.map(({ key, was, now }) => `${labels[key] ?? key} was ${JSON.stringify(was)}, now ${JSON.stringify(now)}`).join('; ');
}
