/**
 * The AWS credentials chain, each source against a stand-in of its endpoint over real sockets (IMDSv2, the ECS
 * container endpoint, STS), the environment injected (never this process's own) and ~/.aws in a temporary HOME.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeFor, messageFor } from '../../../../src/cli/exit-codes.js';
import { type Env, loadSharedConfig } from '../../../../src/mirror/lake/s3/config-files.js';
import { resolveCredentials } from '../../../../src/mirror/lake/s3/credentials.js';
import { tempDir } from '../../../helpers/cli.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A stand-in endpoint: answers by `route`, records every request. */
function useStandIn(route: (req: Seen, res: http.ServerResponse) => void): { readonly base: string; seen: Seen[] } {
  const seen: Seen[] = [];
  let server: http.Server | undefined;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const request = { method: req.method!, url: req.url!, headers: req.headers, body };
        seen.push(request);
        route(request, res);
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });
  return {
    seen,
    get base() {
      return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
    },
  };
}

const NO_IMDS = { AWS_EC2_METADATA_DISABLED: 'true' };

function home(files: Record<string, string> = {}): string {
  const dir = tempDir('swapx-aws-home-');
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

function resolve(env: Env, dir = home(), extra: { containerHost?: string; now?: () => number } = {}) {
  return resolveCredentials({ env, shared: loadSharedConfig(env, dir), home: dir, ...extra });
}

async function refused(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  const error = await promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
  return { code: exitCodeFor(error), message: messageFor(error) };
}

const later = (ms: number) => new Date(Date.now() + ms).toISOString();

describe('the environment and the shared files', () => {
  it('takes AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN first', async () => {
    const files = home({ '.aws/credentials': '[default]\naws_access_key_id = FILEKEY\naws_secret_access_key = filesecret\n' });
    const provider = await resolve({ AWS_ACCESS_KEY_ID: 'ENVKEY', AWS_SECRET_ACCESS_KEY: 'envsecret', AWS_SESSION_TOKEN: 'envtoken' }, files);
    expect(provider.source).toBe('the environment (AWS_ACCESS_KEY_ID)');
    expect(await provider.get()).toEqual({ accessKeyId: 'ENVKEY', secretAccessKey: 'envsecret', sessionToken: 'envtoken' });
  });

  it('refuses half a pair, exit 3, naming the variable that is missing', async () => {
    expect(await refused(resolve({ AWS_ACCESS_KEY_ID: 'ENVKEY', ...NO_IMDS }))).toEqual({
      code: 3,
      message: 'AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not',
    });
  });

  it('reads the profile AWS_PROFILE names, the credentials file over the config file ([profile NAME])', async () => {
    const files = home({
      '.aws/credentials': '# keys\n[default]\naws_access_key_id = DEFKEY\naws_secret_access_key = defsecret\n\n[work]\naws_access_key_id = WORKKEY\n',
      '.aws/config': '[profile work]\naws_access_key_id = CONFIGKEY\naws_secret_access_key = worksecret\nregion = eu-west-3\n',
    });
    const work = await resolve({ AWS_PROFILE: 'work', ...NO_IMDS }, files);
    expect(work.source).toBe(`profile 'work' (${files}/.aws/credentials)`);
    expect(await work.get()).toEqual({ accessKeyId: 'WORKKEY', secretAccessKey: 'worksecret' });
    expect(await (await resolve(NO_IMDS, files)).get()).toEqual({ accessKeyId: 'DEFKEY', secretAccessKey: 'defsecret' });
  });

  it('follows AWS_SHARED_CREDENTIALS_FILE and AWS_CONFIG_FILE', async () => {
    const dir = home({ 'elsewhere/creds': '[ci]\naws_access_key_id = CIKEY\naws_secret_access_key = cisecret\naws_session_token = citoken\n' });
    const env = { AWS_PROFILE: 'ci', AWS_SHARED_CREDENTIALS_FILE: `${dir}/elsewhere/creds`, AWS_CONFIG_FILE: `${dir}/none`, ...NO_IMDS };
    expect(await (await resolve(env, dir)).get()).toEqual({ accessKeyId: 'CIKEY', secretAccessKey: 'cisecret', sessionToken: 'citoken' });
  });

  it('says a named profile that is nowhere, exit 3; a missing default goes on down the chain', async () => {
    const dir = home();
    expect(await refused(resolve({ AWS_PROFILE: 'nope', ...NO_IMDS }, dir))).toEqual({
      code: 3,
      message: `AWS_PROFILE names profile 'nope', which is in neither ${dir}/.aws/credentials nor ${dir}/.aws/config`,
    });
    expect((await refused(resolve(NO_IMDS, dir))).message).toMatch(/^no AWS credentials found: set AWS_ACCESS_KEY_ID/);
  });

  it('runs a profile’s credential_process and reads its JSON', async () => {
    const dir = home();
    const script = path.join(dir, 'creds.sh');
    fs.writeFileSync(
      script,
      `#!/bin/sh\necho '{"Version": 1, "AccessKeyId": "PROCKEY", "SecretAccessKey": "procsecret", "SessionToken": "proctoken", "Expiration": "${later(3_600_000)}"}'\n`,
      { mode: 0o755 },
    );
    fs.mkdirSync(path.join(dir, '.aws'));
    fs.writeFileSync(path.join(dir, '.aws/config'), `[default]\ncredential_process = ${script} --flag\n`);
    const provider = await resolve(NO_IMDS, dir);
    expect(provider.source).toBe("profile 'default' (credential_process)");
    expect(await provider.get()).toMatchObject({ accessKeyId: 'PROCKEY', secretAccessKey: 'procsecret', sessionToken: 'proctoken' });
  });

  it('refuses what it does not do (a role from another profile, SSO) in a line that says so, not passed over', async () => {
    const dir = home({ '.aws/config': '[profile a]\nrole_arn = arn:aws:iam::1:role/r\nsource_profile = b\n[profile s]\nsso_session = corp\n' });
    expect((await refused(resolve({ AWS_PROFILE: 'a' }, dir))).message).toBe(
      "profile 'a' assumes role arn:aws:iam::1:role/r from another profile or source, which swapx does not do: export the role's credentials (aws configure export-credentials --profile a --format env)",
    );
    expect((await refused(resolve({ AWS_PROFILE: 's' }, dir))).message).toMatch(/^profile 's' signs in with SSO, which swapx does not do/);
  });
});

describe('web identity (STS AssumeRoleWithWebIdentity)', () => {
  const sts = useStandIn((req, res) => {
    const form = new URLSearchParams(req.body);
    if (form.get('WebIdentityToken') !== 'the-jwt') {
      res
        .writeHead(400, { 'content-type': 'text/xml' })
        .end('<ErrorResponse><Error><Code>InvalidIdentityToken</Code><Message>bad the-jwt</Message></Error></ErrorResponse>');
      return;
    }
    res
      .writeHead(200, { 'content-type': 'text/xml' })
      .end(
        `<AssumeRoleWithWebIdentityResponse><AssumeRoleWithWebIdentityResult><Credentials><AccessKeyId>STSKEY</AccessKeyId><SecretAccessKey>stssecret</SecretAccessKey><SessionToken>ststoken</SessionToken><Expiration>${later(3_600_000)}</Expiration></Credentials></AssumeRoleWithWebIdentityResult></AssumeRoleWithWebIdentityResponse>`,
      );
  });

  it('trades the token file for the role’s credentials at the STS endpoint AWS_ENDPOINT_URL_STS names', async () => {
    const dir = home({ token: 'the-jwt\n' });
    const env = {
      AWS_WEB_IDENTITY_TOKEN_FILE: `${dir}/token`,
      AWS_ROLE_ARN: 'arn:aws:iam::1:role/lake',
      AWS_ROLE_SESSION_NAME: 'nightly',
      AWS_ENDPOINT_URL_STS: sts.base,
      ...NO_IMDS,
    };
    const provider = await resolve(env, dir);
    expect(provider.source).toBe('web identity (AWS_WEB_IDENTITY_TOKEN_FILE, role arn:aws:iam::1:role/lake)');
    expect(await provider.get()).toMatchObject({ accessKeyId: 'STSKEY', secretAccessKey: 'stssecret', sessionToken: 'ststoken' });
    const form = new URLSearchParams(sts.seen.at(-1)!.body);
    expect(Object.fromEntries(form)).toEqual({
      Action: 'AssumeRoleWithWebIdentity',
      Version: '2011-06-15',
      RoleArn: 'arn:aws:iam::1:role/lake',
      RoleSessionName: 'nightly',
      WebIdentityToken: 'the-jwt',
    });
  });

  it('says STS’s refusal by its code, exit 3, without the token', async () => {
    const dir = home({ token: 'not-the-jwt' });
    const env = { AWS_WEB_IDENTITY_TOKEN_FILE: `${dir}/token`, AWS_ROLE_ARN: 'arn:aws:iam::1:role/lake', AWS_ENDPOINT_URL_STS: sts.base };
    expect(await refused(resolve(env, dir))).toEqual({
      code: 3,
      message: `STS (AssumeRoleWithWebIdentity for arn:aws:iam::1:role/lake) at ${sts.base} refused the token of ${dir}/token (InvalidIdentityToken)`,
    });
  });
});

describe('container credentials (ECS, EKS)', () => {
  const ecs = useStandIn((req, res) => {
    if (req.url !== '/v2/credentials/abc' || (req.headers.authorization !== undefined && req.headers.authorization !== 'Bearer pod-token')) {
      res.writeHead(403).end('{}');
      return;
    }
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ AccessKeyId: 'ECSKEY', SecretAccessKey: 'ecssecret', Token: 'ecstoken', Expiration: later(3_600_000) }));
  });

  it('GETs AWS_CONTAINER_CREDENTIALS_RELATIVE_URI at the ECS agent', async () => {
    const provider = await resolve({ AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: '/v2/credentials/abc', ...NO_IMDS }, home(), { containerHost: ecs.base.slice(7) });
    expect(provider.source).toBe('the container credentials endpoint (AWS_CONTAINER_CREDENTIALS_RELATIVE_URI)');
    expect(await provider.get()).toMatchObject({ accessKeyId: 'ECSKEY', sessionToken: 'ecstoken' });
  });

  it('GETs AWS_CONTAINER_CREDENTIALS_FULL_URI with the token of AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE', async () => {
    const dir = home({ 'pod-token': 'Bearer pod-token\n' });
    const env = { AWS_CONTAINER_CREDENTIALS_FULL_URI: `${ecs.base}/v2/credentials/abc`, AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE: `${dir}/pod-token` };
    expect(await (await resolve(env, dir)).get()).toMatchObject({ accessKeyId: 'ECSKEY' });
    expect(ecs.seen.at(-1)!.headers.authorization).toBe('Bearer pod-token');
    const wrong = { AWS_CONTAINER_CREDENTIALS_FULL_URI: `${ecs.base}/v2/credentials/abc`, AWS_CONTAINER_AUTHORIZATION_TOKEN: 'Bearer wrong' };
    expect(await refused(resolve(wrong))).toEqual({ code: 3, message: `the container credentials endpoint at ${ecs.base} refused (HTTP 403)` });
  });

  it('refuses a plain-http FULL_URI beyond loopback and ECS’s and EKS’s addresses', async () => {
    expect((await refused(resolve({ AWS_CONTAINER_CREDENTIALS_FULL_URI: 'http://example.com/creds' }))).message).toBe(
      "the container credentials endpoint must be https, or http on loopback or ECS's or EKS's address; not http://example.com",
    );
  });
});

describe('the EC2 instance role (IMDSv2)', () => {
  let issued = 0;
  let failing = false;
  const imds = useStandIn((req, res) => {
    if (failing) return void res.writeHead(500).end();
    if (req.method === 'PUT' && req.url === '/latest/api/token') {
      if (req.headers['x-aws-ec2-metadata-token-ttl-seconds'] !== '21600') return void res.writeHead(400).end();
      return void res.writeHead(200).end('imds-session');
    }
    if (req.headers['x-aws-ec2-metadata-token'] !== 'imds-session') return void res.writeHead(401).end();
    if (req.url === '/latest/meta-data/iam/security-credentials/') return void res.writeHead(200).end('lake-role');
    if (req.url === '/latest/meta-data/iam/security-credentials/lake-role') {
      issued += 1;
      const body = {
        Code: 'Success',
        AccessKeyId: `IMDSKEY${issued}`,
        SecretAccessKey: `imdssecret${issued}`,
        Token: `imdstoken${issued}`,
        Expiration: later(10 * 60_000),
      };
      return void res.writeHead(200).end(JSON.stringify(body));
    }
    res.writeHead(404).end();
  });

  it('takes a session token, the role’s name, then its credentials, from AWS_EC2_METADATA_SERVICE_ENDPOINT', async () => {
    const provider = await resolve({ AWS_EC2_METADATA_SERVICE_ENDPOINT: imds.base });
    expect(provider.source).toBe('the EC2 instance role (instance metadata)');
    expect(await provider.get()).toMatchObject({ accessKeyId: `IMDSKEY${issued}`, sessionToken: `imdstoken${issued}` });
    expect(imds.seen.slice(-3).map((r) => `${r.method} ${r.url}`)).toEqual([
      'PUT /latest/api/token',
      'GET /latest/meta-data/iam/security-credentials/',
      'GET /latest/meta-data/iam/security-credentials/lake-role',
    ]);
  });

  it('fetches them again 5 minutes before they expire (a long --follow run), and keeps them through a failed refresh while valid', async () => {
    let clock = Date.now();
    const provider = await resolve({ AWS_EC2_METADATA_SERVICE_ENDPOINT: imds.base }, home(), { now: () => clock });
    const first = await provider.get();
    clock += 4 * 60_000;
    expect(await provider.get()).toBe(first);
    clock += 2 * 60_000;
    const second = await provider.get();
    expect(second.accessKeyId).not.toBe(first.accessKeyId);
    clock += 3 * 60_000;
    failing = true;
    try {
      expect(await provider.get()).toBe(second);
    } finally {
      failing = false;
    }
    expect(provider.secrets()).toEqual(expect.arrayContaining([first.secretAccessKey, first.sessionToken, second.secretAccessKey]));
  });

  it('is not asked when AWS_EC2_METADATA_DISABLED=true: no credentials, exit 3', async () => {
    const before = imds.seen.length;
    expect(await refused(resolve({ AWS_EC2_METADATA_SERVICE_ENDPOINT: imds.base, ...NO_IMDS }))).toEqual({
      code: 3,
      message:
        'no AWS credentials found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE with ~/.aws/credentials (looked in the environment, the profile, web identity and a container; instance metadata is disabled)',
    });
    expect(imds.seen.length).toBe(before);
  });

  it('off EC2 (nothing answers at the endpoint) says no credentials were found, exit 3', async () => {
    const closed = imds.base.replace(/:\d+$/, ':1');
    expect((await refused(resolve({ AWS_EC2_METADATA_SERVICE_ENDPOINT: closed }))).message).toMatch(
      /; no instance metadata service answered at http:\/\/127\.0\.0\.1:1\)$/,
    );
  });
});
