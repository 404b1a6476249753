import { describe, expect, it } from 'vitest';
import { ALLOW_HTTP_ENV, checkBaseUrl, isLoopbackHost, redactUrl } from '../../src/api/base-url.js';
import { refusal } from '../helpers/refusal.js';

describe('isLoopbackHost', () => {
  it.each(['localhost', '127.0.0.1', '[::1]', '::1', '127.1.2.3', '127.10.200.255'])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });
  it.each(['api.localhost', 'localhost.example', '127.0.0.1.example', 'x127.0.0.1', '128.0.0.1', '127.0.0', '127x0x0x1', '127.0.0.1x', '10.0.0.1', '::2', ''])(
    '%s is not',
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );
});

describe('redactUrl', () => {
  it.each([
    ['https://user:pw@api.example/v1', 'https://[REDACTED]@api.example/v1'],
    ['HTTPS://user@api.example', 'HTTPS://[REDACTED]@api.example'],
    ['git+ssh.x-y://u:p@host', 'git+ssh.x-y://[REDACTED]@host'],
    ['user:pw@api.example', '[REDACTED]@api.example'],
    ['https://a@b@api.example/', 'https://[REDACTED]@api.example/'],
    ['https://:secret@h', 'https://[REDACTED]@h'],
  ])('%s shows as %s', (text, shown) => {
    expect(redactUrl(text)).toBe(shown);
  });
  it.each(['https://api.example/v1', 'https://api.example/a@b', 'https://api.example?x=a@b', 'https://api.example#a@b', 'a b@c', '1http://u@h/x', ''])(
    '%s is shown as it is',
    (text) => {
      expect(redactUrl(text)).toBe(text);
    },
  );
});

describe('checkBaseUrl', () => {
  it('returns the parsed URL', () => {
    const url = checkBaseUrl('https://api.example/prefix/', true, '--base-url');
    expect(url).toBeInstanceOf(URL);
    expect(url.href).toBe('https://api.example/prefix/');
    expect(checkBaseUrl('http://api.example', false, '--base-url').href).toBe('http://api.example/');
  });

  it.each([
    ['not a url', "--base-url is not an http(s) URL: 'not a url'"],
    ['', "--base-url is not an http(s) URL: ''"],
    ['ftp://files.example', "--base-url is not an http(s) URL: 'ftp://files.example'"],
    ['ftp://me:pw@files.example', "--base-url is not an http(s) URL: 'ftp://[REDACTED]@files.example'"],
    ['file:///etc/passwd', "--base-url is not an http(s) URL: 'file:///etc/passwd'"],
  ])('refuses %j as not http(s)', (text, message) => {
    expect(refusal(() => checkBaseUrl(text, false, '--base-url'))).toBe(message);
  });

  it.each(['https://me:pw@api.example', 'https://me@api.example', 'https://:pw@api.example'])('refuses credentials in %s', (text) => {
    expect(refusal(() => checkBaseUrl(text, false, 'SWAPX_BASE_URL'))).toBe(
      "SWAPX_BASE_URL must not contain credentials; use 'swapx auth login' or SWAPX_CLIENT_ID/SWAPX_API_KEY",
    );
  });

  it.each(['https://api.example/?a=1', 'https://api.example/#top'])('refuses a query or fragment: %s', (text) => {
    expect(refusal(() => checkBaseUrl(text, false, '--base-url'))).toBe(`--base-url must not have a query or fragment: '${text}'`);
  });

  it('refuses plain http with credentials beyond loopback, unless allowed', () => {
    expect(ALLOW_HTTP_ENV).toBe('SWAPX_ALLOW_HTTP');
    expect(refusal(() => checkBaseUrl('http://api.example:8080/v', true, '--base-url'))).toBe(
      '--base-url: refusing plain http to api.example:8080: the API key would travel in clear text; use https://, or a loopback address, or for a test server set SWAPX_ALLOW_HTTP=1',
    );
    expect(refusal(() => checkBaseUrl('http://api.example', true, 'the base URL', false))).toMatch(/^the base URL: refusing plain http to api\.example:/);
    expect(checkBaseUrl('http://api.example', true, 'x', true).host).toBe('api.example');
    expect(checkBaseUrl('http://api.example', false, '--base-url').host).toBe('api.example');
    expect(checkBaseUrl('https://api.example', true, '--base-url').host).toBe('api.example');
    expect(checkBaseUrl('http://127.0.0.1:8787', true, '--base-url').port).toBe('8787');
    expect(checkBaseUrl('http://localhost', true, '--base-url').hostname).toBe('localhost');
    expect(checkBaseUrl('http://[::1]:1', true, '--base-url').hostname).toBe('[::1]');
  });
});
