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

/** "filter was null, now "Completed"; gzip was false, now true" */
export function describeDifference<Q extends object>(saved: Q, wanted: Q, labels: Record<keyof Q, string>): string {
  return (Object.keys(labels) as (keyof Q)[])
    .filter((key) => JSON.stringify(saved[key]) !== JSON.stringify(wanted[key]))
    .map((key) => `${labels[key]} was ${JSON.stringify(saved[key])}, now ${JSON.stringify(wanted[key])}`)
    .join('; ');
}
