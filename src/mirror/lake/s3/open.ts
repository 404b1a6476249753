/**
 * The one call that turns an `s3://BUCKET/PREFIX` --out (or the folder of an `s3://BUCKET/KEY` -o) into a client: the URL read (location.ts), the region, the
 * endpoint and the credentials found the AWS way (settings.ts, credentials.ts), and one request that proves them
 * (a list of one key under the prefix), so that a wrong key, a missing bucket or a server that is down is said
 * before a run starts, in one line with its exit code.
 */
import os from 'node:os';
import { createS3Client, type S3Client, type S3ClientOptions } from './client.js';
import { loadSharedConfig, type Env } from './config-files.js';
import { resolveCredentials } from './credentials.js';
import { describeLocation, parseS3Location, type S3Location } from './location.js';
import { resolveEndpoint, resolveRegion } from './settings.js';

export interface OpenS3Options extends Partial<Omit<S3ClientOptions, 'location' | 'region' | 'endpoint' | 'credentials'>> {
  /** the environment to read (the command's, never this process's own in a test) */
  env: Env;
  /** where ~/.aws is; default the user's home */
  home?: string;
  /** the ECS agent's address for AWS_CONTAINER_CREDENTIALS_RELATIVE_URI (a test's stand-in) */
  containerHost?: string;
}

export interface OpenedS3 {
  client: S3Client;
  location: S3Location;
  /** for -v: where, which region, which endpoint and addressing, where the credentials came from; no secret */
  description: string;
}

/** `out`: the URL as given (read here), or a location read already (an object's folder: location.ts's parseS3Object). */
export async function openS3Client(out: string | S3Location, options: OpenS3Options): Promise<OpenedS3> {
  const location = typeof out === 'string' ? parseS3Location(out) : out;
  const { env, home = os.homedir(), containerHost, ...rest } = options;
  const shared = loadSharedConfig(env, home);
  const region = resolveRegion(env, shared);
  const endpoint = resolveEndpoint('s3', env, shared);
  const credentials = await resolveCredentials({ env, shared, home, containerHost, now: options.now });
  const client = createS3Client({ ...rest, location, region, endpoint, credentials });
  try {
    await client.check();
  } catch (error) {
    await client.close();
    throw error;
  }
  const at = endpoint ? `${endpoint.origin} (path-style)` : 'AWS';
  return { client, location, description: `${describeLocation(location)} at ${at}, region ${region}, credentials from ${credentials.source}` };
}
