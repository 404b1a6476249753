/** `s3://BUCKET/PREFIX` read: S3's bucket rules, the prefix normalised, credentials in the URL refused unechoed (exit 2). */
import { describe, expect, it } from 'vitest';
import { exitCodeFor, messageFor } from '../../../../src/cli/exit-codes.js';
import { isS3Url } from '../../../../src/fs/output-target.js';
import { inUsersTerms } from '../../../../src/commands/sync/errors.js';
import { describeLocation, parseS3Location } from '../../../../src/mirror/lake/s3/location.js';

function refusal(text: string): { code: number; message: string } {
  try {
    parseS3Location(text);
  } catch (error) {
    // As the user reads it: the shell names the URL as given (--out).
    const said = inUsersTerms(error);
    return { code: exitCodeFor(said), message: messageFor(said) };
  }
  throw new Error(`${text} was accepted`);
}

describe('parseS3Location', () => {
  it('reads the bucket and a prefix normalised to segments ending in /', () => {
    expect(parseS3Location('s3://my-lake')).toEqual({ bucket: 'my-lake', prefix: '' });
    expect(parseS3Location(' S3://my-lake/ ')).toEqual({ bucket: 'my-lake', prefix: '' });
    expect(parseS3Location('s3://my.lake.2026/swaps//xflow/')).toEqual({ bucket: 'my.lake.2026', prefix: 'swaps/xflow/' });
    expect(describeLocation(parseS3Location('s3://my-lake/a/b'), 'date=2026-11-27/part.parquet')).toBe('s3://my-lake/a/b/date=2026-11-27/part.parquet');
    expect(isS3Url('s3://x')).toBe(true);
    expect(isS3Url('/tmp/s3://x')).toBe(false);
  });

  it('refuses credentials in the URL, exit 2, without repeating any part of them', () => {
    for (const text of ['s3://AKIAEXAMPLE:s3cr3t@my-lake/p', 's3://AKIAEXAMPLE@my-lake', 's3://AKIAEXAMPLE:se/cr3t@my-lake/p']) {
      const { code, message } = refusal(text);
      expect(code).toBe(2);
      expect(message).toBe(
        '--out: an s3:// URL never carries credentials: give them as AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile (AWS_PROFILE)',
      );
      expect(message).not.toMatch(/AKIA|s3cr3t|se\//);
    }
    // An '@' in the prefix is a key's character, not credentials.
    expect(parseS3Location('s3://my-lake/team@corp/')).toEqual({ bucket: 'my-lake', prefix: 'team@corp/' });
  });

  it('refuses what S3 would refuse as a bucket name, saying which rule', () => {
    expect(refusal('s3://')).toEqual({ code: 2, message: '--out: the s3:// URL names no bucket (expected s3://BUCKET/PREFIX)' });
    expect(refusal('s3://ab').message).toBe("--out: 'ab' is not a bucket name: a bucket name has 3 to 63 characters");
    expect(refusal('s3://My_Lake').message).toBe("--out: 'My_Lake' is not a bucket name: a bucket name has only lowercase letters, digits, dots and hyphens");
    expect(refusal('s3://-lake').message).toBe("--out: '-lake' is not a bucket name: a bucket name begins and ends with a letter or a digit");
    expect(refusal('s3://my..lake').message).toBe("--out: 'my..lake' is not a bucket name: a bucket name has no two dots in a row");
    expect(refusal('s3://192.168.1.1').message).toBe("--out: '192.168.1.1' is not a bucket name: a bucket name is not an IP address");
    expect(refusal('s3://xn--lake').message).toBe("--out: 'xn--lake' is not a bucket name: its beginning or end is reserved by AWS");
  });

  it('refuses a query, . and .. segments, control characters', () => {
    expect(refusal('s3://my-lake/p?region=eu-west-1').message).toMatch(/^--out: an s3:\/\/ URL takes no query or fragment/);
    expect(refusal('s3://my-lake/a/../b').message).toBe("--out: the prefix has a '..' segment; give the path as it is");
    expect(refusal('s3://my-lake/a\u0007b').message).toBe('--out: the prefix has a control character');
  });
});
