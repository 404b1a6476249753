/**
 * An S3 answer that refuses a request, as the error that says why in one line: which credentials (by where they
 * came from, never their value), which bucket, which region. One place, so that GET, PUT, a list and a multipart
 * upload word a refusal alike.
 */
import { UsageError } from '../../../api/errors.js';
import { NoSuchBucketError, S3AccessDeniedError, S3CredentialsError, S3Error, redactSecrets } from './errors.js';
import type { S3Response } from './transport.js';
import { text } from './xml.js';

export interface RefusalContext {
  bucket: string;
  region: string;
  /** the endpoint as messages name it */
  endpoint: string;
  /** where the credentials came from, as credentials.ts says it */
  source: string;
  /** strings never to print (the secret, the session token) */
  secrets: readonly (string | undefined)[];
}

/** The S3 error code of an answer's XML body, if it has one (a HEAD's answer has no body). */
export function errorCodeOf(response: S3Response): string | undefined {
  return response.body.length === 0 ? undefined : text(response.body.toString('utf8'), 'Code');
}

export function refusal(response: S3Response, what: string, context: RefusalContext, request: { method: string; path: string }): Error {
  const xml = response.body.toString('utf8');
  const code = errorCodeOf(response);
  const said = redactSecrets(text(xml, 'Message') ?? '', context.secrets)
    .replace(/\s+/g, ' ')
    .trim();
  const { bucket, source } = context;
  switch (code) {
    case 'NoSuchBucket':
      return new NoSuchBucketError(`the bucket '${bucket}' does not exist at ${context.endpoint} (NoSuchBucket)`, bucket);
    case 'InvalidAccessKeyId':
      return new S3CredentialsError(`the S3 server does not know the access key from ${source} (InvalidAccessKeyId)`);
    case 'SignatureDoesNotMatch':
      return new S3CredentialsError(`the S3 server refused the signature: the secret key from ${source} is not its access key's (SignatureDoesNotMatch)`);
    case 'ExpiredToken':
    case 'TokenRefreshRequired':
      return new S3CredentialsError(`the session token from ${source} has expired (${code})`);
    case 'InvalidToken':
      return new S3CredentialsError(`the S3 server refused the session token from ${source} (InvalidToken)`);
    case 'AccessDenied':
    case 'AllAccessDisabled':
      return new S3AccessDeniedError(`access denied to ${what} with the credentials from ${source} (${code})`);
    case 'AuthorizationHeaderMalformed':
    case 'PermanentRedirect':
    case 'IllegalLocationConstraintException': {
      const region = response.headers['x-amz-bucket-region'] ?? text(xml, 'Region');
      if (region && region !== context.region) {
        return new UsageError(`the bucket '${bucket}' is in region ${region}, not ${context.region}: set AWS_REGION=${region}`);
      }
    }
  }
  if (response.status === 403) {
    return new S3AccessDeniedError(`access denied to ${what} with the credentials from ${source} (HTTP 403${code ? ` ${code}` : ''})`);
  }
  const words = [code, said].filter(Boolean).join(': ');
  return new S3Error(`the S3 server refused ${what} (HTTP ${response.status}${words ? ` ${words}` : ''})`, response.status, response.headers, code, request);
}
