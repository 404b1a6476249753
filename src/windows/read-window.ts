/**
 * The window reader: one request for a window's swaps, its body read one swap at a time. The body is split into
 * its elements (json-elements.ts) and each is parsed and checked on its own, so a window's swaps never all live
 * as objects at once, and a swap sent in canonical JSON comes with its bytes, which the JSON formats write as
 * they are. Internal to the engines: the public client (api/client.ts) returns checked swaps only.
 */
import { isUtf8 } from 'node:buffer';
import { swapsQuery, type SwapWindowQuery, type SwapxClient } from '../api/client.js';
import type { RequestInfo } from '../api/errors.js';
import { HttpCore } from '../api/http.js';
import { PATHS } from '../api/paths.js';
import { checkSwap, checkSwaps } from '../api/shape.js';
import type { Swap } from '../api/types.js';
import { keyCount, splitObjects, utf8Text } from './json-elements.js';

/**
 * Receives the swaps of a window one at a time, in the order sent. `raw` is the swap's bytes as the API sent
 * them when they are exactly what JSON.stringify(swap) writes (so they can be written as they are), else undefined.
 * The bytes are a part of the response body: whoever keeps one keeps the body.
 */
export type SwapVisitor = (swap: Swap, raw: Buffer | undefined) => void;

/** A window read: how many swaps were visited, and the body their raws are parts of. */
export interface WindowRead {
  count: number;
  body: Buffer;
}

/**
 * Reads one window: the same request, retries and errors as the client's listSwaps. A wrong swap throws before the
 * next is visited: the swaps visited before it belong to a failed read and are to be dropped with it.
 */
export type ReadWindow = (query: SwapWindowQuery, visit: SwapVisitor, signal?: AbortSignal) => Promise<WindowRead>;

/** The reader of windows over `client`'s connections, throttle and retries. */
export function windowReader(client: SwapxClient): ReadWindow {
  const { http } = client;
  return async (query, visit, signal) => {
    const relative = HttpCore.pathWithQuery(PATHS.swaps, swapsQuery(query));
    const request: RequestInfo = { method: 'GET', path: http.fullPath(relative) };
    const body = await http.getJsonBytes(relative, { signal });
    const { bytes } = body;
    // JSON between systems is UTF-8 (RFC 8259): other bytes would be read as U+FFFD and written so, silently.
    if (!isUtf8(bytes)) throw body.notJson();
    const elements = splitObjects(bytes);
    if (elements === undefined) {
      // Not a plain array of objects (or not JSON at all): read the ordinary way, for the ordinary errors.
      let parsed: unknown;
      try {
        parsed = JSON.parse(bytes.toString('utf8'));
      } catch {
        throw body.notJson();
      }
      const swaps = checkSwaps(parsed, request);
      for (const swap of swaps) visit(swap, undefined);
      return { count: swaps.length, body: bytes };
    }
    const { spans, canonical, keys, count } = elements;
    for (let i = 0; i < count; i++) {
      const start = spans[i * 2]!;
      const end = spans[i * 2 + 1]!;
      let value: unknown;
      try {
        value = JSON.parse(utf8Text(bytes, start, end));
      } catch {
        // An element that is not JSON makes the whole body not JSON.
        throw body.notJson();
      }
      const swap = checkSwap(value, i, request);
      // A key sent twice is read once (the last): such bytes are not what JSON.stringify writes.
      const raw = canonical[i] === 1 && keyCount(swap) === keys[i] ? bytes.subarray(start, end) : undefined;
      visit(swap, raw);
    }
    return { count, body: bytes };
  };
}
