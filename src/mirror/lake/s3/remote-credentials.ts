/**
 * Temporary credentials from where AWS hands them to a machine: the EC2 instance metadata service (IMDSv2: a
 * token PUT, then GETs with it), an ECS or EKS container's credentials endpoint, and STS's
 * AssumeRoleWithWebIdentity (a Kubernetes service account's token). Each returns credentials with their expiry;
 * credentials.ts refreshes them before it. Every failure is one line naming the endpoint, never a token.
 */
import fs from 'node:fs';
import type { Dispatcher } from 'undici';
import { S3CredentialsError } from './errors.js';
import type { AwsCredentials } from './sigv4.js';
import { text } from './xml.js';
import { uriEncode } from './sigv4.js';

interface Answer {
  status: number;
  body: string;
}

/** One request with a short timeout (the metadata services answer in milliseconds, or are not there), tried twice. */
async function call(url: URL, init: { method?: string; headers?: Record<string, string>; body?: string }, timeoutMs: number, what: string): Promise<Answer> {
  const undici = await import('../../../api/undici.js');
  let lastError: unknown;
  for (let attempt = 0; attempt < 2; attempt++) {
    const dispatcher: Dispatcher = new undici.Agent({ connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    try {
      const response = await undici.request(url, {
        method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
        headers: init.headers,
        body: init.body,
        dispatcher,
      });
      const body = await response.body.text();
      if (response.statusCode < 500) return { status: response.statusCode, body };
      lastError = new Error(`HTTP ${response.statusCode}`);
    } catch (error) {
      lastError = error;
    } finally {
      await dispatcher.close().catch(() => undefined);
    }
  }
  const code = (lastError as { code?: string } | undefined)?.code;
  throw new S3CredentialsError(`${what} at ${url.origin} did not answer: ${code ?? (lastError instanceof Error ? lastError.message : String(lastError))}`);
}

/** The JSON the metadata services and credential_process give: AccessKeyId, SecretAccessKey, Token, Expiration. */
export function credentialsFromJson(json: unknown, what: string): AwsCredentials {
  const value = json as Record<string, unknown> | null;
  const accessKeyId = value?.AccessKeyId;
  const secretAccessKey = value?.SecretAccessKey;
  const token = value?.Token ?? value?.SessionToken;
  const expiration = value?.Expiration;
  if (typeof accessKeyId !== 'string' || typeof secretAccessKey !== 'string' || !accessKeyId || !secretAccessKey) {
    throw new S3CredentialsError(`${what} gave no AccessKeyId and SecretAccessKey`);
  }
  const expiresAt = typeof expiration === 'string' ? Date.parse(expiration) : Number.NaN;
  return {
    accessKeyId,
    secretAccessKey,
    ...(typeof token === 'string' && token ? { sessionToken: token } : {}),
    ...(Number.isFinite(expiresAt) ? { expiresAt } : {}),
  };
}

function parseJson(body: string, what: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new S3CredentialsError(`${what} answered with something other than JSON`);
  }
}

/** EC2's instance role, through IMDSv2: a session token (PUT), the role's name, then its credentials. */
export async function instanceCredentials(endpoint: URL): Promise<AwsCredentials> {
  const what = 'the EC2 instance metadata service';
  const base = endpoint.href.replace(/\/+$/, '');
  const token = await call(new URL(`${base}/latest/api/token`), { method: 'PUT', headers: { 'x-aws-ec2-metadata-token-ttl-seconds': '21600' } }, 1000, what);
  if (token.status !== 200) throw new S3CredentialsError(`${what} at ${endpoint.origin} refused a session token (HTTP ${token.status})`);
  const headers = { 'x-aws-ec2-metadata-token': token.body.trim() };
  const path = `${base}/latest/meta-data/iam/security-credentials/`;
  const roles = await call(new URL(path), { headers }, 1000, what);
  const role = roles.status === 200 ? roles.body.split('\n')[0]?.trim() : undefined;
  if (!role) throw new S3CredentialsError(`${what} at ${endpoint.origin} names no instance role (HTTP ${roles.status}): attach a role to the instance`);
  const answer = await call(new URL(`${path}${encodeURIComponent(role)}`), { headers }, 1000, what);
  const json = parseJson(answer.body, what) as { Code?: unknown };
  if (answer.status !== 200 || (json.Code !== undefined && json.Code !== 'Success')) {
    throw new S3CredentialsError(`${what} at ${endpoint.origin} gave no credentials for role '${role}' (${String(json.Code ?? `HTTP ${answer.status}`)})`);
  }
  return credentialsFromJson(json, what);
}

/** Hosts a container credentials URL may name over plain http (as the SDKs allow): loopback and ECS's and EKS's own. */
const CONTAINER_HOSTS = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\]|169\.254\.170\.2|169\.254\.170\.23|\[fd00:ec2::23\])$/;

/** An ECS task's or EKS pod's credentials: GET the URL, with the authorization token when one is given. */
export async function containerCredentials(url: URL, authorization: string | undefined): Promise<AwsCredentials> {
  const what = 'the container credentials endpoint';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && CONTAINER_HOSTS.test(url.hostname))) {
    throw new S3CredentialsError(`${what} must be https, or http on loopback or ECS's or EKS's address; not ${url.origin}`);
  }
  const answer = await call(url, { headers: authorization ? { authorization } : {} }, 2000, what);
  if (answer.status !== 200) throw new S3CredentialsError(`${what} at ${url.origin} refused (HTTP ${answer.status})`);
  return credentialsFromJson(parseJson(answer.body, what), what);
}

/** The token of a container credentials request: AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE (read each time: it rotates) or _TOKEN. */
export function containerAuthorization(file: string | undefined, token: string | undefined): string | undefined {
  if (file) {
    try {
      return fs.readFileSync(file, 'utf8').trim();
    } catch (error) {
      throw new S3CredentialsError(`cannot read AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
  return token || undefined;
}

/** STS AssumeRoleWithWebIdentity (an unsigned call): the role's credentials for the token in `tokenFile`, read each time. */
export async function webIdentityCredentials(sts: URL, roleArn: string, tokenFile: string, sessionName: string): Promise<AwsCredentials> {
  const what = `STS (AssumeRoleWithWebIdentity for ${roleArn})`;
  let token: string;
  try {
    token = fs.readFileSync(tokenFile, 'utf8').trim();
  } catch (error) {
    throw new S3CredentialsError(`cannot read the web identity token file ${tokenFile}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const form = { Action: 'AssumeRoleWithWebIdentity', Version: '2011-06-15', RoleArn: roleArn, RoleSessionName: sessionName, WebIdentityToken: token };
  const body = Object.entries(form)
    .map(([k, v]) => `${k}=${uriEncode(v)}`)
    .join('&');
  const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/xml' };
  const answer = await call(sts, { method: 'POST', headers, body }, 5000, what);
  if (answer.status !== 200) {
    const code = text(answer.body, 'Code');
    throw new S3CredentialsError(`${what} at ${sts.origin} refused the token of ${tokenFile} (${code ?? `HTTP ${answer.status}`})`);
  }
  if (text(answer.body, 'Credentials') === undefined) throw new S3CredentialsError(`${what} at ${sts.origin} answered without credentials`);
  return credentialsFromJson(
    {
      AccessKeyId: text(answer.body, 'AccessKeyId'),
      SecretAccessKey: text(answer.body, 'SecretAccessKey'),
      Token: text(answer.body, 'SessionToken'),
      Expiration: text(answer.body, 'Expiration'),
    },
    what,
  );
}
