import { createHash } from 'node:crypto';
import { PreconditionFailedError } from './errors.js';
import { describeLocation, type S3Location } from './location.js';
import { abortMultipart, type BodySource, bufferSource, MULTIPART_THRESHOLD, PART_SIZE, putMultipart } from './multipart.js';
import { errorCodeOf, refusal } from './refusals.js';
import { S3Transport, endpointName, type S3Response, type S3Target, type TransportOptions } from './transport.js';
import { elements, text } from './xml.js';

export interface S3Object {
  key: string;
  etag: string;
  size: number;
}

export interface S3Client {
  /** the location as messages name it: s3://bucket/prefix/ */
  readonly name: string;
  /** undefined: no such key */
  get(key: string): Promise<{ body: Buffer; etag: string } | undefined>;
  /** `lastModified`: epoch ms, when the server said */
  head(key: string): Promise<{ etag: string; size: number; lastModified: number | undefined } | undefined>;
  /** conditional: ifMatch (an ETag as returned) or ifNoneMatch '*'; a precondition that fails is PreconditionFailedError */
  put(key: string, body: Buffer, options?: { ifMatch?: string; ifNoneMatch?: '*' }): Promise<{ etag: string }>;
  /**
   * An unconditional put of a body read a part at a time (a file that need not fit in memory): one PUT up to the
   * multipart threshold, else a multipart upload, whose id `onMultipart` is told before any part is sent.
   */
  upload(key: string, body: BodySource, options?: { onMultipart?: (uploadId: string) => void | Promise<void> }): Promise<{ etag: string }>;
  /** aborts a multipart upload of `key` (its parts deleted), even after the run was stopped; one that is gone is no error */
  abortUpload(key: string, uploadId: string): Promise<void>;
  /** the multipart uploads begun and neither completed nor aborted under `prefix`, oldest first per key */
  uploads(prefix: string): Promise<{ key: string; uploadId: string }[]>;
  /** a key that is not there is no error */
  delete(key: string): Promise<void>;
  /** every page; keys and prefixes relative to the location's prefix, in S3's order (UTF-8 bytes) */
  list(prefix: string, options?: { delimiter?: string }): Promise<{ objects: S3Object[]; prefixes: string[] }>;
  /** the server's clock now (epoch ms): its last Date header moved on by the time since; for leases */
  serverTime(): number | undefined;
  /** one request (a list of one key under the prefix): the credentials, the bucket and the endpoint, proved */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** The transport's options (credentials, retries, timeouts, signal, -v, clock: passed on whole), and the client's own. */
export interface S3ClientOptions extends Omit<TransportOptions, 'target' | 'dispatcher'> {
  location: S3Location;
  region: string;
  /** a custom endpoint (path-style), or undefined for AWS's */
  endpoint: URL | undefined;
  /** a body above this goes as a multipart upload; default MULTIPART_THRESHOLD (64 MiB) */
  multipartThreshold?: number;
  /** default PART_SIZE (16 MiB); S3 takes no part under 5 MiB but the last */
  partSize?: number;
  /** keys per list page (S3's max-keys); default S3's 1000 */
  pageSize?: number;
}

/** An ETag in the form S3 returns it, quoted, whatever form a server (or a caller's ifMatch) gave it in: ETags compare as strings. */
function quoted(etag: string): string {
  return etag.startsWith('"') || etag.startsWith('W/"') ? etag : `"${etag}"`;
}

function unquoted(etag: string): string {
  return etag.replace(/^"|"$/g, '');
}

export function createS3Client(options: S3ClientOptions): S3Client {
  return new Client(options);
}

class Client implements S3Client {
  readonly name: string;
  private readonly transport: S3Transport;
  private readonly target: S3Target;
  /** radosgw matches If-Match unquoted: once seen, that form is sent first */
  private ifMatchUnquotedFirst = false;

  constructor(private readonly options: S3ClientOptions) {
    this.name = describeLocation(options.location);
    this.target = { bucket: options.location.bucket, region: options.region, endpoint: options.endpoint };
    this.transport = new S3Transport({ ...options, target: this.target });
  }

  private fullKey(key: string): string {
    if (key === '' || key.startsWith('/') || key.split('/').some((s) => s === '.' || s === '..' || s === '')) {
      throw new Error(`not an object key: '${key}'`);
    }
    return this.options.location.prefix + key;
  }

  private refused(response: S3Response, what: string, request: { method: string; key?: string }): Error {
    const context = {
      bucket: this.target.bucket,
      region: this.target.region,
      endpoint: endpointName(this.target),
      source: this.options.credentials.source,
      secrets: this.options.credentials.secrets(),
    };
    return refusal(response, what, context, { method: request.method, path: request.key ?? '' });
  }

  private where(key: string): string {
    return describeLocation(this.options.location, key);
  }

  async get(key: string): Promise<{ body: Buffer; etag: string } | undefined> {
    const full = this.fullKey(key);
    const response = await this.transport.send({ method: 'GET', key: full });
    if (response.status === 200) return { body: response.body, etag: quoted(response.headers.etag ?? '') };
    if (response.status === 404 && errorCodeOf(response) !== 'NoSuchBucket') return undefined;
    throw this.refused(response, `read ${this.where(key)}`, { method: 'GET', key: full });
  }

  async head(key: string): Promise<{ etag: string; size: number; lastModified: number | undefined } | undefined> {
    const full = this.fullKey(key);
    const response = await this.transport.send({ method: 'HEAD', key: full });
    if (response.status === 200) {
      const modified = Date.parse(response.headers['last-modified'] ?? '');
      return {
        etag: quoted(response.headers.etag ?? ''),
        size: Number(response.headers['content-length'] ?? 0),
        lastModified: Number.isFinite(modified) ? modified : undefined,
      };
    }
    // A HEAD's answer has no body to say why: a missing key and a missing bucket are both a bare 404 (the open
    // check has found the bucket), and a refusal is asked again as a GET of one byte, whose body says which.
    if (response.status === 404) return undefined;
    const again = await this.transport.send({ method: 'GET', key: full, headers: { range: 'bytes=0-0' } });
    if (again.status === 200 || again.status === 206) throw this.refused(response, `read ${this.where(key)}`, { method: 'HEAD', key: full });
    if (again.status === 404 && errorCodeOf(again) !== 'NoSuchBucket') return undefined;
    throw this.refused(again, `read ${this.where(key)}`, { method: 'HEAD', key: full });
  }

  async put(key: string, body: Buffer, options: { ifMatch?: string; ifNoneMatch?: '*' } = {}): Promise<{ etag: string }> {
    const full = this.fullKey(key);
    const conditional = options.ifMatch !== undefined || options.ifNoneMatch !== undefined;
    if (!conditional && body.length > (this.options.multipartThreshold ?? MULTIPART_THRESHOLD)) return this.upload(key, bufferSource(body));
    const forms = options.ifMatch === undefined ? [undefined] : this.ifMatchForms(options.ifMatch);
    let response: S3Response | undefined;
    let retried = false;
    let sent: string | undefined;
    for (const ifMatch of forms) {
      sent = ifMatch;
      const headers: Record<string, string> = {};
      if (ifMatch !== undefined) headers['if-match'] = ifMatch;
      if (options.ifNoneMatch !== undefined) headers['if-none-match'] = options.ifNoneMatch;
      response = await this.transport.send({ method: 'PUT', key: full, body, headers });
      retried ||= response.retried;
      if (response.status !== 412) break;
    }
    response = response!;
    if (response.status === 200) {
      // The form that held is the one sent last: the loop stops at the first answer that is not a 412.
      if (sent !== undefined) this.ifMatchUnquotedFirst = !sent.startsWith('"');
      return { etag: quoted(response.headers.etag ?? '') };
    }
    const code = errorCodeOf(response);
    const failedCondition =
      response.status === 412 || (response.status === 404 && options.ifMatch !== undefined && code !== 'NoSuchBucket') || code === 'ConditionalRequestConflict';
    if (failedCondition) {
      // A retried PUT whose first attempt went through (its answer lost) finds its own object there: a 412 that is
      // ours. The object's ETag is then our body's MD5 (a single PUT's ETag, on AWS and radosgw alike).
      if (retried && (await this.head(key))?.etag === quoted(createHash('md5').update(body).digest('hex'))) {
        return { etag: quoted(createHash('md5').update(body).digest('hex')) };
      }
      const condition = options.ifNoneMatch === '*' ? 'it exists already' : 'it has changed or is gone';
      throw new PreconditionFailedError(`${this.where(key)} was not written: ${condition} (a precondition failed)`, key);
    }
    throw this.refused(response, `write ${this.where(key)}`, { method: 'PUT', key: full });
  }

  async upload(key: string, body: BodySource, options: { onMultipart?: (uploadId: string) => void | Promise<void> } = {}): Promise<{ etag: string }> {
    if (body.size <= (this.options.multipartThreshold ?? MULTIPART_THRESHOLD)) return this.put(key, await body.read(0, body.size));
    const full = this.fullKey(key);
    const etag = await putMultipart(
      {
        transport: this.transport,
        refused: (response, what) => this.refused(response, what, { method: 'POST', key: full }),
        name: this.where(key),
        onStarted: options.onMultipart,
      },
      full,
      body,
      this.options.partSize ?? PART_SIZE,
    );
    return { etag: quoted(etag) };
  }

  async abortUpload(key: string, uploadId: string): Promise<void> {
    const full = this.fullKey(key);
    const response = await abortMultipart(this.transport, full, uploadId);
    if (response.status === 204 || response.status === 200 || (response.status === 404 && errorCodeOf(response) !== 'NoSuchBucket')) return;
    throw this.refused(response, `abort an upload of ${this.where(key)}`, { method: 'DELETE', key: full });
  }

  async uploads(prefix: string): Promise<{ key: string; uploadId: string }[]> {
    const root = this.options.location.prefix;
    const out: { key: string; uploadId: string }[] = [];
    let marker: Record<string, string> = {};
    for (;;) {
      const response = await this.transport.send({ method: 'GET', query: { uploads: '', prefix: root + prefix, ...marker } });
      if (response.status !== 200) throw this.refused(response, `list the uploads under ${this.where(prefix)}`, { method: 'GET' });
      const xml = response.body.toString('utf8');
      for (const entry of elements(xml, 'Upload')) out.push({ key: (text(entry, 'Key') ?? '').slice(root.length), uploadId: text(entry, 'UploadId') ?? '' });
      if (text(xml, 'IsTruncated') !== 'true') return out;
      marker = { 'key-marker': text(xml, 'NextKeyMarker') ?? '', 'upload-id-marker': text(xml, 'NextUploadIdMarker') ?? '' };
    }
  }

  /** The If-Match values to try in turn: the form that worked last first, then the other. */
  private ifMatchForms(etag: string): string[] {
    const forms = [quoted(etag), unquoted(etag)];
    return this.ifMatchUnquotedFirst ? forms.reverse() : forms;
  }

  async delete(key: string): Promise<void> {
    const full = this.fullKey(key);
    const response = await this.transport.send({ method: 'DELETE', key: full });
    if (response.status === 204 || response.status === 200) return;
    if (response.status === 404 && errorCodeOf(response) !== 'NoSuchBucket') return;
    throw this.refused(response, `delete ${this.where(key)}`, { method: 'DELETE', key: full });
  }

  async list(prefix: string, options: { delimiter?: string } = {}): Promise<{ objects: S3Object[]; prefixes: string[] }> {
    const root = this.options.location.prefix;
    const objects: S3Object[] = [];
    const prefixes: string[] = [];
    let token: string | undefined;
    do {
      const query: Record<string, string> = { 'list-type': '2', prefix: root + prefix };
      if (options.delimiter !== undefined) query.delimiter = options.delimiter;
      if (this.options.pageSize !== undefined) query['max-keys'] = String(this.options.pageSize);
      if (token !== undefined) query['continuation-token'] = token;
      const response = await this.transport.send({ method: 'GET', query });
      if (response.status !== 200) throw this.refused(response, `list ${this.where(prefix)}`, { method: 'GET' });
      const xml = response.body.toString('utf8');
      for (const entry of elements(xml, 'Contents')) {
        const key = text(entry, 'Key') ?? '';
        objects.push({ key: key.slice(root.length), etag: quoted(text(entry, 'ETag') ?? ''), size: Number(text(entry, 'Size') ?? 0) });
      }
      for (const entry of elements(xml, 'CommonPrefixes')) prefixes.push((text(entry, 'Prefix') ?? '').slice(root.length));
      token = text(xml, 'IsTruncated') === 'true' ? text(xml, 'NextContinuationToken') : undefined;
    } while (token !== undefined);
    return { objects, prefixes };
  }

  serverTime(): number | undefined {
    return this.transport.serverNow();
  }

  async check(): Promise<void> {
    const query = { 'list-type': '2', prefix: this.options.location.prefix, 'max-keys': '1' };
    const response = await this.transport.send({ method: 'GET', query });
    if (response.status !== 200) throw this.refused(response, `list ${this.name}`, { method: 'GET' });
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}
