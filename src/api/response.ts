/** A response as the HTTP core reads it: its headers, its body under a size cap, and whether that body is JSON. */
import { isUtf8 } from 'node:buffer';
import type { Dispatcher } from 'undici';
import { ResponseFormatError, type RequestInfo } from './errors.js';

export const JSON_TYPE_RE = /^(application\/json|text\/json|text\/plain|application\/[\w.+-]*\+json)$/i;

export function headerRecord(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value !== undefined) out[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export function mediaType(headers: Record<string, string>): string {
  return (headers['content-type'] ?? '').split(';')[0]!.trim();
}

export function parseJson(body: Buffer, contentType: string): { ok: true; value: unknown } | { ok: false } {
  if (contentType && !JSON_TYPE_RE.test(contentType)) return { ok: false };
  // JSON between systems is UTF-8 (RFC 8259); decoding other bytes would put U+FFFD in their place, silently.
  if (!isUtf8(body)) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(body.toString('utf8')) };
  } catch {
    return { ok: false };
  }
}

/** A 2xx body, unparsed, and the error to throw if it turns out not to be JSON. */
export interface JsonBytes {
  bytes: Buffer;
  notJson(): ResponseFormatError;
}

/** A 2xx whose body is not JSON. */
export function notJsonError(status: number, headers: Record<string, string>, info: RequestInfo): ResponseFormatError {
  const contentType = mediaType(headers);
  return new ResponseFormatError(
    `the API answered HTTP ${status} with a body that is not JSON (content type ${contentType || 'none'}, ${info.method} ${info.path})`,
    status,
    headers,
    undefined,
    info,
  );
}

/** Reads the whole body under the size cap; always consumes or destroys it so the connection is released. */
export async function readBody(response: Dispatcher.ResponseData, headers: Record<string, string>, info: RequestInfo, maxBodyBytes: number): Promise<Buffer> {
  const declared = Number(headers['content-length']);
  const tooLarge = () =>
    new ResponseFormatError(
      `response body larger than ${Math.round(maxBodyBytes / 1048576)} MiB (HTTP ${response.statusCode}, ${info.method} ${info.path}); refusing to read it`,
      response.statusCode,
      headers,
      undefined,
      info,
    );
  if (Number.isFinite(declared) && declared > maxBodyBytes) {
    response.body.destroy();
    throw tooLarge();
  }
  // With a declared length the chunks are copied into one buffer as they arrive: no list of chunks held beside it.
  const exact = Number.isInteger(declared) && declared >= 0 ? Buffer.allocUnsafe(declared) : undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    const bytes = chunk as Buffer;
    if (size + bytes.length > maxBodyBytes || (exact && size + bytes.length > exact.length)) {
      response.body.destroy();
      // More than declared is a broken response (undici normally refuses it first).
      if (exact && size + bytes.length <= maxBodyBytes)
        throw Object.assign(new Error('response longer than its Content-Length'), { code: 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' });
      throw tooLarge();
    }
    if (exact) exact.set(bytes, size);
    else chunks.push(bytes);
    size += bytes.length;
  }
  // A view of what arrived: all of it when the body was as long as declared.
  if (exact) return exact.subarray(0, size);
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}
