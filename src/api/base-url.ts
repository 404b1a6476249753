/** The API's base URL: what may be one, where credentials may go over plain http, and how it may be shown. */
import { UsageError } from './errors.js';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
/**
 * Where credentials may go over plain http. Not *.localhost: RFC 6761 reserves it for loopback, but where the
 * resolver does not know that (hosts: files dns) it is asked of the DNS server, which may answer anything.
 */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** A URL as it may be shown: credentials in it are never echoed (up to the last @ of the authority, with or without a scheme). */
export function redactUrl(text: string): string {
  return text.replace(/^([a-z][a-z\d+.-]*:\/\/)?[^/?#\s]*@/i, '$1[REDACTED]@');
}

/** The environment variable that lets credentials go over plain http to a test server beyond loopback. */
export const ALLOW_HTTP_ENV = 'SWAPX_ALLOW_HTTP';

/**
 * Parses and checks a base URL: http(s) only, and no credentials over plain
 * http beyond loopback unless `allowPlainHttp` (SWAPX_ALLOW_HTTP=1, for a test server). `name`: what the
 * messages call it, as the caller knows it (the flag, the variable, "the base URL").
 */
export function checkBaseUrl(baseUrl: string, sendsCredentials: boolean, name: string, allowPlainHttp = false): URL {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new UsageError(`${name} is not an http(s) URL: '${redactUrl(baseUrl)}'`);
  if (url.username || url.password) throw new UsageError(`${name} must not contain credentials; use 'swapx auth login' or SWAPX_CLIENT_ID/SWAPX_API_KEY`);
  // Each request's path and query are swapx's own: a query here would be dropped from every one of them, silently.
  if (url.search || url.hash) throw new UsageError(`${name} must not have a query or fragment: '${redactUrl(baseUrl)}'`);
  if (url.protocol === 'http:' && sendsCredentials && !allowPlainHttp && !isLoopbackHost(url.hostname)) {
    throw new UsageError(
      `${name}: refusing plain http to ${url.host}: the API key would travel in clear text; use https://, or a loopback address, or for a test server set ${ALLOW_HTTP_ENV}=1`,
    );
  }
  return url;
}
