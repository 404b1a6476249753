/**
 * The region and the endpoint, as the AWS CLI and SDKs choose them.
 * Region: AWS_REGION > AWS_DEFAULT_REGION > the profile's `region` > us-east-1.
 * Endpoint of a service (s3, sts): AWS_ENDPOINT_URL_<SERVICE> > AWS_ENDPOINT_URL > the profile's `services`
 * section (`<service> =` / `  endpoint_url = …`) > the profile's `endpoint_url` > AWS's own; none of them when
 * AWS_IGNORE_CONFIGURED_ENDPOINT_URLS (or the profile's ignore_configured_endpoint_urls) is true. A custom S3
 * endpoint is addressed path-style (http://host:port/BUCKET/KEY): S3-compatible servers rarely have a DNS name per
 * bucket.
 */
import { UsageError } from '../../../api/errors.js';
import type { Env, SharedConfig } from './config-files.js';

export function resolveRegion(env: Env, shared: SharedConfig): string {
  return env.AWS_REGION || env.AWS_DEFAULT_REGION || shared.profile?.region || 'us-east-1';
}

/** The configured endpoint of `service` ('s3', 'sts'), or undefined for AWS's own. */
export function resolveEndpoint(service: 's3' | 'sts', env: Env, shared: SharedConfig): URL | undefined {
  const ignore = (env.AWS_IGNORE_CONFIGURED_ENDPOINT_URLS ?? shared.profile?.ignore_configured_endpoint_urls ?? '').toLowerCase() === 'true';
  if (ignore) return undefined;
  const variable = `AWS_ENDPOINT_URL_${service.toUpperCase()}`;
  const servicesName = shared.profile?.services;
  const fromServices = servicesName ? shared.services(servicesName)?.[`${service}.endpoint_url`] : undefined;
  const candidates: [string | undefined, string][] = [
    [env[variable], variable],
    [env.AWS_ENDPOINT_URL, 'AWS_ENDPOINT_URL'],
    [fromServices, `the ${service} endpoint_url of [services ${servicesName}] in ${shared.configFile}`],
    [shared.profile?.endpoint_url, `endpoint_url of profile '${shared.profileName}'`],
  ];
  for (const [value, where] of candidates) if (value) return checkEndpoint(value, where);
  return undefined;
}

/** An http(s) URL with no credentials, query or fragment; its text is quoted only when it holds no '@'. */
function checkEndpoint(value: string, where: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${where} is not a URL${value.includes('@') ? '' : `: '${value}'`}`);
  }
  if (url.username || url.password) throw new UsageError(`${where} carries credentials: give them as AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${where} is not an http:// or https:// URL: '${value}'`);
  if (url.search || url.hash) throw new UsageError(`${where} has a query or fragment: '${value}'`);
  return url;
}
