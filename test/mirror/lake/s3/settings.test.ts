/** The region and the endpoint, in the AWS CLI's order, from an injected environment and a temporary HOME. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodeFor, messageFor } from '../../../../src/cli/exit-codes.js';
import { type Env, loadSharedConfig } from '../../../../src/mirror/lake/s3/config-files.js';
import { resolveEndpoint, resolveRegion } from '../../../../src/mirror/lake/s3/settings.js';
import { tempDir } from '../../../helpers/cli.js';

const CONFIG = `[default]
region = eu-west-3
endpoint_url = http://profile.example:9000

[profile svc]
services = local
endpoint_url = http://profile.example:9000

[services local]
s3 =
  endpoint_url = http://services.example:7480
sts =
  endpoint_url = http://sts.example:7480
`;

function shared(env: Env) {
  const home = tempDir('swapx-aws-home-');
  fs.mkdirSync(path.join(home, '.aws'));
  fs.writeFileSync(path.join(home, '.aws/config'), CONFIG);
  return loadSharedConfig(env, home);
}

const endpoint = (env: Env, service: 's3' | 'sts' = 's3') => resolveEndpoint(service, env, shared(env))?.href;

describe('the region', () => {
  it('is AWS_REGION, else AWS_DEFAULT_REGION, else the profile’s, else us-east-1', () => {
    expect(resolveRegion({ AWS_REGION: 'ap-south-1', AWS_DEFAULT_REGION: 'sa-east-1' }, shared({}))).toBe('ap-south-1');
    expect(resolveRegion({ AWS_DEFAULT_REGION: 'sa-east-1' }, shared({}))).toBe('sa-east-1');
    expect(resolveRegion({}, shared({}))).toBe('eu-west-3');
    expect(resolveRegion({ AWS_PROFILE: 'svc' }, shared({ AWS_PROFILE: 'svc' }))).toBe('us-east-1');
  });
});

describe('the endpoint', () => {
  it('is AWS_ENDPOINT_URL_S3, else AWS_ENDPOINT_URL, else the profile’s services section, else its endpoint_url, else AWS’s', () => {
    expect(endpoint({ AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:7480', AWS_ENDPOINT_URL: 'http://other:1' })).toBe('http://127.0.0.1:7480/');
    expect(endpoint({ AWS_ENDPOINT_URL: 'https://minio.internal' })).toBe('https://minio.internal/');
    expect(endpoint({ AWS_PROFILE: 'svc' })).toBe('http://services.example:7480/');
    expect(endpoint({ AWS_PROFILE: 'svc' }, 'sts')).toBe('http://sts.example:7480/');
    expect(endpoint({})).toBe('http://profile.example:9000/');
    expect(endpoint({ AWS_PROFILE: 'none' })).toBeUndefined();
  });

  it('is AWS’s own when AWS_IGNORE_CONFIGURED_ENDPOINT_URLS is true', () => {
    expect(endpoint({ AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: 'true', AWS_ENDPOINT_URL: 'http://127.0.0.1:7480' })).toBeUndefined();
  });

  it('refuses credentials or a query in it, exit 2, without quoting them', () => {
    try {
      endpoint({ AWS_ENDPOINT_URL: 'http://KEY:SECRET@127.0.0.1:7480' });
      throw new Error('accepted');
    } catch (error) {
      expect(exitCodeFor(error)).toBe(2);
      expect(messageFor(error)).toBe('AWS_ENDPOINT_URL carries credentials: give them as AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
    }
    expect(() => endpoint({ AWS_ENDPOINT_URL_S3: 'ftp://x' })).toThrow("AWS_ENDPOINT_URL_S3 is not an http:// or https:// URL: 'ftp://x'");
  });
});
