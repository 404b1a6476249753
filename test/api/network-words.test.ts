import { describe, expect, it } from 'vitest';
import { NETWORK_WORDS, networkWords } from '../../src/api/network-words.js';

describe('networkWords', () => {
  it('says what each known code means, in the words -v lines and error messages print', () => {
    expect(NETWORK_WORDS).toEqual({
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
    expect(networkWords('ECONNREFUSED')).toBe('connection refused');
    expect(networkWords('UND_ERR_SOCKET')).toBe('connection closed unexpectedly');
  });

  it('an unknown code is shown as it is, no code as "failed"', () => {
    expect(networkWords('EWEIRD')).toBe('EWEIRD');
    expect(networkWords(undefined)).toBe('failed');
    expect(networkWords('')).toBe('');
    expect(networkWords('toString')).toBe('toString');
    expect(networkWords('constructor')).toBe('constructor');
    expect(networkWords('__proto__')).toBe('__proto__');
  });
});
