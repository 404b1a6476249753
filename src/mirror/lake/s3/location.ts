/**
 * An `s3://BUCKET/PREFIX` mirror address (and an `s3://BUCKET/KEY` object an export writes: its folder's location and
 * its name), read without WHATWG's URL (whose errors quote the text, credentials and all): the bucket checked against
 * S3's naming rules, the prefix normalised to '' or 'a/b/', and a URL that carries credentials (`s3://KEY:SECRET@bucket`)
 * refused in a line that never repeats them. Problems are AddressErrors in the URL: the shell names the flag.
 */
import { AddressError } from '../../../sync/errors.js';

/** Every problem here is in the URL itself. */
const IN_URL = { kind: 'url' } as const;

export interface S3Location {
  bucket: string;
  /** '' (the bucket's root) or segments ending in '/': what every key of the mirror starts with */
  prefix: string;
}

/** The location as messages name it: s3://bucket/prefix/ (or s3://bucket/). */
export function describeLocation(location: S3Location, key = ''): string {
  return `s3://${location.bucket}/${location.prefix}${key}`;
}

const CREDENTIALS_REFUSED = ': an s3:// URL never carries credentials: give them as AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile (AWS_PROFILE)';

/** Past this a key is refused by S3 (1024 bytes of UTF-8): the prefix leaves room for the mirror's own names. */
const MAX_PREFIX_BYTES = 512;

export function parseS3Location(text: string): S3Location {
  const trimmed = text.trim();
  if (!/^s3:\/\//i.test(trimmed)) throw new AddressError(IN_URL, ': expected s3://BUCKET or s3://BUCKET/PREFIX');
  const rest = trimmed.slice('s3://'.length);
  const slash = rest.indexOf('/');
  const authority = slash === -1 ? rest : rest.slice(0, slash);
  // `KEY:SECRET@bucket`, and a secret holding '/' that splits the authority early (`KEY:SE/CRET@bucket`): both end
  // here, before any message could quote a part of them.
  if (authority.includes('@') || (rest.includes('@') && authority.includes(':'))) throw new AddressError(IN_URL, CREDENTIALS_REFUSED);
  if (/[?#]/.test(rest))
    throw new AddressError(IN_URL, ': an s3:// URL takes no query or fragment (?…, #…): the region and endpoint come from AWS_REGION and AWS_ENDPOINT_URL');
  checkBucket(authority);
  return { bucket: authority, prefix: normalisePrefix(slash === -1 ? '' : rest.slice(slash + 1)) };
}

/** One object, `s3://BUCKET/KEY`: the location of its folder (the key's segments but the last) and its name there. */
export interface S3ObjectUrl {
  location: S3Location;
  name: string;
  /** the URL as messages name it: s3://bucket/key, normalised as a prefix is */
  url: string;
}

export function parseS3Object(text: string): S3ObjectUrl {
  const whole = parseS3Location(text);
  // A name ending in '/' is a folder's: an export is one object, whose key has a name after its last '/'.
  if (whole.prefix === '' || text.trim().endsWith('/')) throw new AddressError(IN_URL, ': the s3:// URL names no object (expected s3://BUCKET/KEY)');
  const segments = whole.prefix.slice(0, -1).split('/');
  const name = segments.pop()!;
  const location = { bucket: whole.bucket, prefix: segments.length === 0 ? '' : `${segments.join('/')}/` };
  return { location, name, url: describeLocation(location, name) };
}

/**
 * S3's rules for a general purpose bucket (the strictest servers keep; radosgw by default keeps the same): 3 to 63
 * characters of a-z, 0-9, '.' and '-', a letter or digit at each end, no '..', not an IP address, none of AWS's
 * reserved prefixes and suffixes.
 */
function checkBucket(bucket: string): void {
  const refuse = (why: string): never => {
    throw new AddressError(IN_URL, `: '${bucket}' is not a bucket name: ${why}`);
  };
  if (bucket === '') throw new AddressError(IN_URL, ': the s3:// URL names no bucket (expected s3://BUCKET/PREFIX)');
  if (bucket.length < 3 || bucket.length > 63) refuse('a bucket name has 3 to 63 characters');
  if (!/^[a-z0-9.-]+$/.test(bucket)) refuse('a bucket name has only lowercase letters, digits, dots and hyphens');
  if (!/^[a-z0-9].*[a-z0-9]$/.test(bucket)) refuse('a bucket name begins and ends with a letter or a digit');
  if (bucket.includes('..')) refuse('a bucket name has no two dots in a row');
  if (/^\d+\.\d+\.\d+\.\d+$/.test(bucket)) refuse('a bucket name is not an IP address');
  if (/^(xn--|sthree-|amzn-s3-demo-)/.test(bucket) || /(-s3alias|--ol-s3|\.mrap|--x-s3|--table-s3)$/.test(bucket)) {
    refuse('its beginning or end is reserved by AWS');
  }
}

/** 'a//b/' → 'a/b/'; '' stays ''; '.', '..' and control characters are refused (readers of the lake take them apart). */
function normalisePrefix(raw: string): string {
  const segments = raw.split('/').filter((segment) => segment !== '');
  for (const segment of segments) {
    if (segment === '.' || segment === '..') throw new AddressError(IN_URL, `: the prefix has a '${segment}' segment; give the path as it is`);
  }
  if (/[\u0000-\u001f\u007f]/.test(raw)) throw new AddressError(IN_URL, ': the prefix has a control character');
  const prefix = segments.length === 0 ? '' : `${segments.join('/')}/`;
  if (Buffer.byteLength(prefix) > MAX_PREFIX_BYTES) throw new AddressError(IN_URL, `: the prefix is longer than ${MAX_PREFIX_BYTES} bytes`);
  return prefix;
}
