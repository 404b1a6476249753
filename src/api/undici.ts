/**
 * The two parts of undici that the HTTP core uses, loaded on the first request. Only these modules,
 * not the package's index: the index also loads fetch, WebSocket, the cache and the mocks, and reading
 * the Headers global on the way pulls in Node's own bundled copy of undici as well. On a one-lookup
 * run that was a third of the start-up (`npm run bench startup`). These are paths inside the package, so
 * package.json pins undici's exact version: a new one is taken on purpose, with the tests.
 */
import type { Dispatcher } from 'undici';
import UndiciAgent from 'undici/lib/dispatcher/agent.js';
import apiRequest from 'undici/lib/api/api-request.js';

export const Agent: typeof import('undici').Agent = UndiciAgent;

/** undici's `request(url, options)` with a given dispatcher. */
export function request(
  url: URL,
  { dispatcher, ...options }: Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Dispatcher },
): Promise<Dispatcher.ResponseData> {
  return apiRequest.call(dispatcher, { ...options, origin: url.origin, path: `${url.pathname}${url.search}` });
}
