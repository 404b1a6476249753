/**
 * What the API answers, independent of sockets, latency and faults:
 * route → method → auth → validation → data. Bodies are produced lazily so a
 * request that gets a fault instead never pays for serialising its data.
 */
import { bridgesAt } from './bridges.js';
import { chainById, chainTokens, listChains } from './chains.js';
import type { SwapDataset } from './dataset.js';
import { authenticate, type Credentials } from './auth.js';
import { forbiddenProblem, methodNotAllowedProblem, notFoundProblem, unconfirmedProblem, validationProblem } from './problems.js';
import { matchRoute, requestUrl } from './router.js';
import { bindBridgesQuery, bindSwapsQuery, bindTokensQuery, readQuery } from './validation.js';

export interface Reply {
  status: number;
  /** The body, as text or as the UTF-8 bytes of it (a window's swaps: see SwapDataset.windowJson). */
  body: () => string | Buffer;
  headers?: Record<string, string>;
  /** Only authenticated, valid requests may be replaced by an injected fault. */
  faultable: boolean;
}

export interface AppContext {
  dataset: SwapDataset;
  credentials: Credentials;
  now: () => number;
}

const json = (status: number, value: unknown, faultable = false): Reply => ({
  status,
  body: () => JSON.stringify(value),
  faultable,
});

export function answer(method: string, rawUrl: string, authorization: string | undefined, ctx: AppContext): Reply {
  const url = requestUrl(rawUrl);
  const instance = url.pathname;
  const route = matchRoute(url.pathname);
  if (!route) return json(404, notFoundProblem(instance));
  if (method !== 'GET') return { ...json(405, methodNotAllowedProblem(instance, method)), headers: { Allow: 'GET' } };

  const auth = authenticate(authorization, ctx.credentials);
  if (!auth.ok) return json(403, auth.unconfirmed ? unconfirmedProblem(instance, auth.unconfirmed) : forbiddenProblem(instance, auth.detail));

  const query = readQuery(url.searchParams);
  const { dataset } = ctx;
  switch (route.name) {
    case 'swaps': {
      const bound = bindSwapsQuery(query);
      if (!bound.ok) return json(400, validationProblem(instance, bound.errors));
      const { from, to, filter } = bound.value;
      const now = ctx.now();
      return { status: 200, body: () => dataset.windowJson(from, to, filter, now), faultable: true };
    }
    case 'swap':
      return json(200, dataset.find(route.identifier, ctx.now()), true);
    case 'chains':
      return json(200, listChains(), true);
    case 'tokens': {
      const bound = bindTokensQuery(query);
      if (!bound.ok) return json(400, validationProblem(instance, bound.errors));
      const chain = chainById(route.blockchainId);
      if (!chain) return json(404, notFoundProblem(instance, `Blockchain '${route.blockchainId}' is not supported.`), true);
      const all = chainTokens(chain, dataset.seed);
      const { take, offset } = bound.value;
      return json(200, { items: all.slice(offset, offset + take), totalCount: all.length }, true);
    }
    case 'bridges': {
      const bound = bindBridgesQuery(query);
      if (!bound.ok) return json(400, validationProblem(instance, bound.errors));
      return json(200, bridgesAt(dataset.seed, ctx.now(), bound.value.includeDelisted), true);
    }
  }
}
