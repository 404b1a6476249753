/** The API's paths, relative to the base URL, with the resource named in them checked and escaped. */
import { UsageError } from './errors.js';

/**
 * One path segment naming `value`. '', '.' and '..' cannot: URLs drop dot segments (even escaped), so the request
 * would name the parent resource (the list of swaps, /v1/external) instead of the one asked for.
 */
function pathSegment(value: string): string {
  if (value === '' || value === '.' || value === '..') throw new UsageError(`'${value}' cannot name a resource in a URL path`);
  return encodeURIComponent(value);
}

/** API paths, relative to the base URL. */
export const PATHS = {
  swaps: '/v1/external/swaps',
  swap: (identifier: string) => `/v1/external/swaps/${pathSegment(identifier)}`,
  chains: '/v1/external/chains',
  tokens: (blockchainId: string) => `/v1/external/chains/${pathSegment(blockchainId)}/tokens`,
  bridges: '/v1/external/bridges',
} as const;
