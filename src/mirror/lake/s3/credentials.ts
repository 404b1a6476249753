/**
 * AWS credentials found as the AWS CLI and SDKs find them, first source that has them wins:
 * 1. the environment: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN);
 * 2. the profile (AWS_PROFILE, else `default`) of ~/.aws/credentials and ~/.aws/config: its keys, its
 *    web_identity_token_file with role_arn, or its credential_process (run, its JSON read);
 * 3. web identity: AWS_WEB_IDENTITY_TOKEN_FILE and AWS_ROLE_ARN (AWS_ROLE_SESSION_NAME) through STS;
 * 4. a container's: AWS_CONTAINER_CREDENTIALS_RELATIVE_URI (on 169.254.170.2) or _FULL_URI, with
 *    AWS_CONTAINER_AUTHORIZATION_TOKEN(_FILE);
 * 5. the EC2 instance's role (IMDSv2), unless AWS_EC2_METADATA_DISABLED=true; AWS_EC2_METADATA_SERVICE_ENDPOINT moves it.
 * A profile's role_arn with source_profile or credential_source, and SSO, are refused with a line that says so, not
 * passed over. Temporary credentials are fetched again 5 minutes before they expire (a --follow run outlives them).
 * What a message says is where the credentials came from (`source`), never a key, a secret or a token.
 */
import { execFile } from 'node:child_process';
import type { Env, SharedConfig } from './config-files.js';
import { settingPath } from './config-files.js';
import { S3CredentialsError } from './errors.js';
import { containerAuthorization, containerCredentials, credentialsFromJson, instanceCredentials, webIdentityCredentials } from './remote-credentials.js';
import { resolveEndpoint, resolveRegion } from './settings.js';
import type { AwsCredentials } from './sigv4.js';
import type { CredentialProvider } from './transport.js';

/** Fetched again this long before they expire (as AWS's SDKs do). */
const REFRESH_BEFORE_MS = 5 * 60_000;

export interface CredentialOptions {
  env: Env;
  shared: SharedConfig;
  home: string;
  /** the ECS agent's address for a relative URI (a test's stand-in) */
  containerHost?: string;
  now?: () => number;
}

/** Credentials that may expire, fetched once at a time and again before they do; kept through a failed refresh while valid. */
class Refreshing implements CredentialProvider {
  private current: AwsCredentials | undefined;
  private pending: Promise<AwsCredentials> | undefined;
  private readonly seen = new Set<string>();

  constructor(
    readonly source: string,
    private readonly fetch: () => Promise<AwsCredentials>,
    private readonly now: () => number,
  ) {}

  async get(options: { forceRefresh?: boolean } = {}): Promise<AwsCredentials> {
    const current = this.current;
    const fresh = current && (current.expiresAt === undefined || current.expiresAt - this.now() > REFRESH_BEFORE_MS);
    if (current && fresh && !options.forceRefresh) return current;
    this.pending ??= this.fetch().finally(() => {
      this.pending = undefined;
    });
    try {
      const next = await this.pending;
      for (const secret of [next.secretAccessKey, next.sessionToken]) if (secret) this.seen.add(secret);
      this.current = next;
      return next;
    } catch (error) {
      // A refresh that fails while the credentials still work (a metadata service hiccup) keeps them.
      if (current?.expiresAt !== undefined && current.expiresAt > this.now() + 60_000 && !options.forceRefresh) return current;
      throw error;
    }
  }

  secrets(): string[] {
    return [...this.seen];
  }
}

/** Finds the first source that has credentials and fetches them once (a source that fails says why). */
export async function resolveCredentials(options: CredentialOptions): Promise<CredentialProvider> {
  const now = options.now ?? Date.now;
  const found = findSource(options);
  const provider = new Refreshing(found.source, found.fetch, now);
  await provider.get();
  return provider;
}

interface Source {
  source: string;
  fetch: () => Promise<AwsCredentials>;
}

function findSource({ env, shared, home, containerHost }: CredentialOptions): Source {
  const id = env.AWS_ACCESS_KEY_ID;
  const secret = env.AWS_SECRET_ACCESS_KEY;
  if (id || secret) {
    if (!id || !secret)
      throw new S3CredentialsError(
        `${id ? 'AWS_ACCESS_KEY_ID' : 'AWS_SECRET_ACCESS_KEY'} is set but ${id ? 'AWS_SECRET_ACCESS_KEY' : 'AWS_ACCESS_KEY_ID'} is not`,
      );
    const credentials = { accessKeyId: id, secretAccessKey: secret, ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) };
    return { source: 'the environment (AWS_ACCESS_KEY_ID)', fetch: async () => credentials };
  }
  const fromProfile = profileSource({ env, shared, home });
  if (fromProfile) return fromProfile;
  const sts = () => resolveEndpoint('sts', env, shared) ?? new URL(`https://sts.${resolveRegion(env, shared)}.amazonaws.com`);
  if (env.AWS_WEB_IDENTITY_TOKEN_FILE && env.AWS_ROLE_ARN) {
    const { AWS_ROLE_ARN: role, AWS_WEB_IDENTITY_TOKEN_FILE: file } = env;
    const session = env.AWS_ROLE_SESSION_NAME || 'swapx';
    return { source: `web identity (AWS_WEB_IDENTITY_TOKEN_FILE, role ${role})`, fetch: () => webIdentityCredentials(sts(), role, file, session) };
  }
  const relative = env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI;
  const full = env.AWS_CONTAINER_CREDENTIALS_FULL_URI;
  if (relative || full) {
    const url = relative ? new URL(relative, `http://${containerHost ?? '169.254.170.2'}`) : parseUrl(full!, 'AWS_CONTAINER_CREDENTIALS_FULL_URI');
    const variable = relative ? 'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI' : 'AWS_CONTAINER_CREDENTIALS_FULL_URI';
    const authorization = () => containerAuthorization(env.AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE, env.AWS_CONTAINER_AUTHORIZATION_TOKEN);
    return { source: `the container credentials endpoint (${variable})`, fetch: () => containerCredentials(url, authorization()) };
  }
  if ((env.AWS_EC2_METADATA_DISABLED ?? '').toLowerCase() !== 'true') {
    const endpoint = parseUrl(
      env.AWS_EC2_METADATA_SERVICE_ENDPOINT || shared.profile?.ec2_metadata_service_endpoint || 'http://169.254.169.254',
      'AWS_EC2_METADATA_SERVICE_ENDPOINT',
    );
    // Off EC2 nothing answers there: that is "no credentials found", said as such, not a metadata error.
    const fetch = () =>
      instanceCredentials(endpoint).catch((error: unknown) => {
        if (error instanceof S3CredentialsError && / did not answer: /.test(error.message))
          throw noCredentials(`no instance metadata service answered at ${endpoint.origin}`);
        throw error;
      });
    return { source: 'the EC2 instance role (instance metadata)', fetch };
  }
  throw noCredentials('instance metadata is disabled');
}

function noCredentials(why: string): S3CredentialsError {
  return new S3CredentialsError(
    'no AWS credentials found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE with ~/.aws/credentials ' +
      `(looked in the environment, the profile, web identity and a container; ${why})`,
  );
}

function parseUrl(value: string, variable: string): URL {
  try {
    return new URL(value);
  } catch {
    throw new S3CredentialsError(`${variable} is not a URL`);
  }
}

function profileSource({ env, shared, home }: { env: Env; shared: SharedConfig; home: string }): Source | undefined {
  const { profile, profileName } = shared;
  const named = `profile '${profileName}'`;
  if (!profile) {
    if (shared.explicit) throw new S3CredentialsError(`AWS_PROFILE names ${named}, which is in neither ${shared.credentialsFile} nor ${shared.configFile}`);
    return undefined;
  }
  const id = profile.aws_access_key_id;
  const secret = profile.aws_secret_access_key;
  if (id || secret) {
    if (!id || !secret)
      throw new S3CredentialsError(`${named} has ${id ? 'aws_access_key_id but no aws_secret_access_key' : 'aws_secret_access_key but no aws_access_key_id'}`);
    const credentials = { accessKeyId: id, secretAccessKey: secret, ...(profile.aws_session_token ? { sessionToken: profile.aws_session_token } : {}) };
    return { source: `${named} (${shared.credentialsFile})`, fetch: async () => credentials };
  }
  if (profile.role_arn && profile.web_identity_token_file) {
    const sts = resolveEndpoint('sts', env, shared) ?? new URL(`https://sts.${resolveRegion(env, shared)}.amazonaws.com`);
    const file = settingPath(profile.web_identity_token_file, home);
    const session = profile.role_session_name || 'swapx';
    return { source: `${named} (web identity, role ${profile.role_arn})`, fetch: () => webIdentityCredentials(sts, profile.role_arn!, file, session) };
  }
  if (profile.role_arn) {
    throw new S3CredentialsError(
      `${named} assumes role ${profile.role_arn} from another profile or source, which swapx does not do: export the role's credentials (aws configure export-credentials --profile ${profileName} --format env)`,
    );
  }
  if (profile.sso_session || profile.sso_start_url) {
    throw new S3CredentialsError(
      `${named} signs in with SSO, which swapx does not do: export its credentials (aws configure export-credentials --profile ${profileName} --format env)`,
    );
  }
  if (profile.credential_process) {
    const command = profile.credential_process;
    return { source: `${named} (credential_process)`, fetch: () => runCredentialProcess(command, named) };
  }
  return undefined;
}

/** A profile's credential_process, run as the AWS CLI runs it (its output: JSON, Version 1); what it prints on stderr is not quoted. */
function runCredentialProcess(command: string, named: string): Promise<AwsCredentials> {
  const what = `the credential_process of ${named}`;
  return new Promise((resolve, reject) => {
    execFile('/bin/sh', ['-c', command], { timeout: 60_000, maxBuffer: 1024 * 1024, encoding: 'utf8' }, (error, stdout) => {
      if (error) {
        reject(new S3CredentialsError(`${what} failed (${error.code ?? error.signal ?? 'error'})`));
        return;
      }
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        reject(new S3CredentialsError(`${what} printed something other than JSON`));
        return;
      }
      if ((json as { Version?: unknown } | null)?.Version !== 1) {
        reject(new S3CredentialsError(`${what} printed JSON without "Version": 1`));
        return;
      }
      try {
        resolve(credentialsFromJson(json, what));
      } catch (failure) {
        reject(failure);
      }
    });
  });
}
