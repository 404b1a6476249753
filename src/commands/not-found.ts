/**
 * A 404 from a lookup means "no such chain" or "no such swap" only if the API is where swapx asks. Behind a wrong
 * base URL (a gateway with the wrong prefix) every path is 404, and calling that "not found" (exit 4) tells a cron
 * script there was nothing to find. The chain list, which always exists, tells the two apart.
 */
import { NotFoundError, WrappedError } from '../api/errors.js';
import type { Chain } from '../api/types.js';
import type { SwapxClient } from '../api/client.js';

/** The chain list, or undefined when it could not be read; throws (exit 1) when it too is not found: the base URL is wrong. */
export async function chainsOrWrongBaseUrl(client: SwapxClient, notFound: NotFoundError): Promise<Chain[] | undefined> {
  try {
    return await client.listChains();
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new WrappedError(`${notFound.message}; the chain list is not found either, so the base URL is probably wrong (check --base-url)`, {
        cause: notFound,
      });
    }
    // The list is a courtesy here: without it, the first 404 still stands.
    return undefined;
  }
}
