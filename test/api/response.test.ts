import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { ResponseFormatError } from '../../src/api/errors.js';
import { JSON_TYPE_RE, headerRecord, mediaType, notJsonError, parseJson, readBody } from '../../src/api/response.js';

const info = { method: 'GET', path: '/v1/external/swaps?From=a' };
const MiB = 1024 * 1024;

describe('headerRecord', () => {
  it('lower-cases names, joins repeated values, and leaves out undefined ones', () => {
    expect(headerRecord({ 'Content-Type': 'application/json', 'Set-Cookie': ['a=1', 'b=2'], Missing: undefined, date: '' })).toEqual({
      'content-type': 'application/json',
      'set-cookie': 'a=1, b=2',
      date: '',
    });
    expect(Object.keys(headerRecord({ X: undefined }))).toEqual([]);
  });
});

describe('mediaType', () => {
  it('is the type without its parameters, trimmed; empty without a content type', () => {
    expect(mediaType({ 'content-type': 'Application/JSON; charset=utf-8' })).toBe('Application/JSON');
    expect(mediaType({ 'content-type': '  text/plain ;charset=x' })).toBe('text/plain');
    expect(mediaType({ 'content-type': 'text/html' })).toBe('text/html');
    expect(mediaType({})).toBe('');
  });
});

describe('JSON_TYPE_RE', () => {
  it.each([
    'application/json',
    'APPLICATION/JSON',
    'text/json',
    'text/plain',
    'application/problem+json',
    'application/vnd.api+json',
    'application/a-b_c+json',
    'application/+json',
  ])('takes %s', (type) => {
    expect(JSON_TYPE_RE.test(type)).toBe(true);
  });
  it.each([
    '',
    'text/html',
    'application/jsonx',
    'xapplication/json',
    'application/json5',
    'text/plainx',
    'atext/json',
    'application/x json+json',
    'application/a/b+json',
    'image/x+json',
  ])('refuses %j', (type) => {
    expect(JSON_TYPE_RE.test(type)).toBe(false);
  });
});

describe('parseJson', () => {
  it('parses a JSON body of a JSON type, or of none', () => {
    expect(parseJson(Buffer.from('{"a":[1,"é"]}'), 'application/json')).toEqual({ ok: true, value: { a: [1, 'é'] } });
    expect(parseJson(Buffer.from('null'), '')).toEqual({ ok: true, value: null });
  });
  it('refuses a type that is not JSON, bytes that are not UTF-8, and text that is not JSON', () => {
    expect(parseJson(Buffer.from('[1]'), 'text/html')).toEqual({ ok: false });
    expect(parseJson(Buffer.from([0x5b, 0x22, 0xff, 0x22, 0x5d]), 'application/json')).toEqual({ ok: false });
    expect(parseJson(Buffer.from('[1,'), 'application/json')).toEqual({ ok: false });
    expect(parseJson(Buffer.from(''), '')).toEqual({ ok: false });
  });
});

describe('notJsonError', () => {
  it('names the status, the content type (or none) and the request', () => {
    const headers = { 'content-type': 'text/html; charset=utf-8' };
    const error = notJsonError(202, headers, info);
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error.message).toBe('the API answered HTTP 202 with a body that is not JSON (content type text/html, GET /v1/external/swaps?From=a)');
    expect(error.status).toBe(202);
    expect(error.headers).toBe(headers);
    expect(error.body).toBeUndefined();
    expect(error.request).toBe(info);
    expect(notJsonError(200, {}, info).message).toBe(
      'the API answered HTTP 200 with a body that is not JSON (content type none, GET /v1/external/swaps?From=a)',
    );
  });
});

/** A response as undici hands it over: a status and a body stream of these chunks. */
function response(chunks: Buffer[], statusCode = 200): { response: Dispatcher.ResponseData; body: Readable } {
  const body = Readable.from(chunks);
  return { response: { statusCode, body } as unknown as Dispatcher.ResponseData, body };
}

async function failure(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error as Error & { code?: string },
  );
}

describe('readBody', () => {
  const bytes = (text: string) => Buffer.from(text);

  it('reads the chunks of a body without a length, the one chunk as it is', async () => {
    const one = bytes('[1,2]');
    expect(await readBody(response([one]).response, {}, info, 100)).toBe(one);
    const several = await readBody(response([bytes('[1,'), bytes('2,'), bytes('3]')]).response, {}, info, 100);
    expect(several.toString()).toBe('[1,2,3]');
    const none = await readBody(response([]).response, {}, info, 100);
    expect(none).toBeInstanceOf(Buffer);
    expect(none.length).toBe(0);
  });

  it('reads a body of its declared length into one buffer, in order', async () => {
    const body = await readBody(response([bytes('abc'), bytes('de'), bytes('f')]).response, { 'content-length': '6' }, info, 100);
    expect(body.toString()).toBe('abcdef');
    expect(body.length).toBe(6);
  });

  it('a body shorter than declared is what arrived', async () => {
    const body = await readBody(response([bytes('abcd')]).response, { 'content-length': '10' }, info, 100);
    expect(body.toString()).toBe('abcd');
    expect(body.length).toBe(4);
  });

  it('a length that is not a whole number of bytes is read as none', async () => {
    for (const length of ['-1', '1.5', 'abc']) {
      const body = await readBody(response([bytes('ab'), bytes('c')]).response, { 'content-length': length }, info, 100);
      expect(body.toString(), length).toBe('abc');
    }
  });

  it('takes a body of exactly the cap, declared or not', async () => {
    expect((await readBody(response([bytes('12345')]).response, { 'content-length': '5' }, info, 5)).toString()).toBe('12345');
    expect((await readBody(response([bytes('123'), bytes('45')]).response, {}, info, 5)).toString()).toBe('12345');
  });

  it('refuses a declared length over the cap before reading, and releases the body', async () => {
    const { response: res, body } = response([bytes('x')], 203);
    const error = await failure(readBody(res, { 'content-length': String(3 * MiB + 1) }, info, 3 * MiB));
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error.message).toBe('response body larger than 3 MiB (HTTP 203, GET /v1/external/swaps?From=a); refusing to read it');
    expect((error as ResponseFormatError).status).toBe(203);
    expect((error as ResponseFormatError).request).toBe(info);
    expect(body.destroyed).toBe(true);
  });

  it('refuses a body that grows over the cap, and releases it', async () => {
    const { response: res, body } = response([bytes('123'), bytes('456'), bytes('789')]);
    const error = await failure(readBody(res, {}, info, 5));
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error.message).toBe('response body larger than 0 MiB (HTTP 200, GET /v1/external/swaps?From=a); refusing to read it');
    expect(body.destroyed).toBe(true);
  });

  it('rounds the cap to whole MiB in the message', async () => {
    for (const cap of [1.6 * MiB, 2.4 * MiB]) {
      const error = await failure(readBody(response([]).response, { 'content-length': String(5 * MiB) }, info, cap));
      expect(error.message).toMatch(/^response body larger than 2 MiB \(HTTP 200/);
    }
  });

  it('a body longer than declared (and under the cap) is a connection-level error, cut short', async () => {
    const { response: res, body } = response([bytes('ab'), bytes('c')]);
    const error = await failure(readBody(res, { 'content-length': '2' }, info, 3));
    expect(error).not.toBeInstanceOf(ResponseFormatError);
    expect(error.message).toBe('response longer than its Content-Length');
    expect(error.code).toBe('UND_ERR_RES_CONTENT_LENGTH_MISMATCH');
    expect(body.destroyed).toBe(true);
    const zero = await failure(readBody(response([bytes('a')]).response, { 'content-length': '0' }, info, 3));
    expect(zero.code).toBe('UND_ERR_RES_CONTENT_LENGTH_MISMATCH');
  });

  it('a body longer than declared and over the cap is too large', async () => {
    const error = await failure(readBody(response([bytes('ab'), bytes('cd')]).response, { 'content-length': '2' }, info, 3));
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error.message).toMatch(/^response body larger than/);
  });

  it('an empty body of declared length 0 is empty', async () => {
    const body = await readBody(response([]).response, { 'content-length': '0' }, info, 3);
    expect(body.length).toBe(0);
  });
});
