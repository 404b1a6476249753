/** What `swapx swap` accepts as an identifier: checked before any request, so a typo is exit 2, not "no swap matches". */
import { UsageError } from '../api/errors.js';

const EVM_HASH = /^0x[0-9a-f]{64}$/i;
const HEX_HASH = /^[0-9a-f]{64}$/i;
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,90}$/;
/** Swap ids: hex (24 digits in the sandbox), UUIDs, or another opaque word of letters, digits, '-' and '_'. */
const ID = /^[0-9a-z][0-9a-z_-]{7,127}$/i;

/** What a hash or an id looks like, for the error. */
export const IDENTIFIER_FORMS =
  'an EVM transaction hash is 0x and 64 hex digits; other chains’ hashes are 64 hex digits or base58; a swap id is 8 to 128 letters, digits, - or _ (such as 6ae6804ca1ceb0a431f6317d)';

export interface SwapIdentifier {
  /** what to ask the API for */
  text: string;
  /** asked when `text` matches nothing: the same hash with 0x, since an EVM hash is often pasted without it */
  fallback?: string;
}

export function parseSwapIdentifier(text: string): SwapIdentifier {
  if (/^0x/i.test(text)) {
    if (EVM_HASH.test(text)) return { text };
    throw new UsageError(
      `'${text}' is not a transaction hash: an EVM hash is 0x and 64 hex digits (this has ${text.length - 2} characters after 0x${/^0x[0-9a-f]*$/i.test(text) ? '' : ', not all hex digits'})`,
    );
  }
  if (HEX_HASH.test(text)) return { text, fallback: `0x${text}` };
  if (BASE58.test(text) || ID.test(text)) return { text };
  throw new UsageError(`'${text}' is not a transaction hash or a swap id: ${IDENTIFIER_FORMS}`);
}
