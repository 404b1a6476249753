/**
 * What a network error code means, in the words -v and error messages use (undici's UND_ERR_… mean nothing to people).
 * Without a prototype: a code such as 'constructor' is unknown, not Object's own function.
 */
export const NETWORK_WORDS: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ECONNABORTED: 'connection aborted',
  EPIPE: 'connection closed while sending',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed (temporary)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connect timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no response in time',
  UND_ERR_BODY_TIMEOUT: 'the response stopped arriving',
  UND_ERR_SOCKET: 'connection closed unexpectedly',
  UND_ERR_CLOSED: 'connection closed',
  UND_ERR_DESTROYED: 'connection closed',
  UND_ERR_ABORTED: 'aborted',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'response cut short',
  UND_ERR_REQ_CONTENT_LENGTH_MISMATCH: 'request cut short',
  UND_ERR_INFO: 'invalid response',
  HPE_INVALID_CONSTANT: 'invalid HTTP response',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed TLS certificate in the chain',
  CERT_HAS_EXPIRED: 'expired TLS certificate',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate for another host',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate not verifiable',
});

/** A short word for a failed attempt's -v line: the meaning when known, the code otherwise. */
export function networkWords(code: string | undefined): string {
  if (code === undefined) return 'failed';
  return NETWORK_WORDS[code] ?? code;
}
