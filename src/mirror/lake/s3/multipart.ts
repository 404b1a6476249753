/**
 * A large body as a multipart upload: initiated, sent in parts (four at a time, each retried on its own by the
 * transport, each read from its source only when it is sent), completed; aborted when anything fails, once the parts
 * in flight have settled, and even when the run was stopped (Ctrl-C), so that no invisible parts are left to be
 * billed. Only unconditional puts come here: radosgw ignores If-None-Match and If-Match on CompleteMultipartUpload
 * (AWS enforces them), so a conditional put is always one PUT (client.ts), which both enforce.
 */
import type { S3Response, S3Transport } from './transport.js';
import { escapeXml, text } from './xml.js';

/** A body past this goes in parts: far above what the mirror's state and indexes weigh, at the size of a big partition. */
export const MULTIPART_THRESHOLD = 64 * 1024 * 1024;
/** S3 refuses parts under 5 MiB (but the last) and more than 10,000 parts: 16 MiB parts carry up to 156 GiB. */
export const PART_SIZE = 16 * 1024 * 1024;
const PARALLEL_PARTS = 4;

/** What is uploaded, read a part at a time: a buffer in memory, or a file (an export) that need not fit in it. */
export interface BodySource {
  readonly size: number;
  /** the bytes [start, end) */
  read(start: number, end: number): Promise<Buffer>;
}

export function bufferSource(body: Buffer): BodySource {
  return { size: body.length, read: async (start, end) => body.subarray(start, end) };
}

export interface MultipartContext {
  transport: S3Transport;
  /** the answer of a request that failed, as the error to throw (refusals.ts) */
  refused: (response: S3Response, what: string) => Error;
  /** the object as messages name it (s3://bucket/key) */
  name: string;
  /** told the upload's id once it is started, before any part is sent: a caller that may be killed records it, to abort it later */
  onStarted?: (uploadId: string) => void | Promise<void>;
}

export async function putMultipart(context: MultipartContext, key: string, body: BodySource, partSize: number): Promise<string> {
  const { transport, refused, name } = context;
  const started = await transport.send({ method: 'POST', key, query: { uploads: '' } });
  if (started.status !== 200) throw refused(started, `a multipart upload of ${name}`);
  const uploadId = text(started.body.toString('utf8'), 'UploadId');
  if (!uploadId) throw new Error(`the S3 server started a multipart upload of ${name} without an UploadId`);
  try {
    await context.onStarted?.(uploadId);
    const count = Math.max(1, Math.ceil(body.size / partSize));
    const etags: string[] = new Array(count);
    let next = 0;
    let failed = false;
    const worker = async () => {
      // After a failure no part is started: the abort then meets no part still being written.
      while (next < count && !failed) {
        const index = next++;
        try {
          const part = await body.read(index * partSize, Math.min(body.size, (index + 1) * partSize));
          const sent = await transport.send({ method: 'PUT', key, query: { partNumber: String(index + 1), uploadId }, body: part });
          if (sent.status !== 200 || !sent.headers.etag) throw refused(sent, `part ${index + 1} of ${name}`);
          etags[index] = sent.headers.etag;
        } catch (error) {
          failed = true;
          throw error;
        }
      }
    };
    const settled = await Promise.allSettled(Array.from({ length: Math.min(PARALLEL_PARTS, count) }, worker));
    const failure = settled.find((result) => result.status === 'rejected');
    if (failure) throw failure.reason;
    const parts = etags.map((etag, index) => `<Part><PartNumber>${index + 1}</PartNumber><ETag>${escapeXml(etag)}</ETag></Part>`).join('');
    const xml = Buffer.from(`<CompleteMultipartUpload>${parts}</CompleteMultipartUpload>`);
    const done = await transport.send({ method: 'POST', key, query: { uploadId }, body: xml, headers: { 'content-type': 'application/xml' } });
    // AWS may answer 200 and still fail: the error is then in the body.
    const answer = done.body.toString('utf8');
    if (done.status !== 200 || text(answer, 'Code') !== undefined)
      throw refused({ ...done, status: done.status === 200 ? 500 : done.status }, `completing ${name}`);
    // radosgw 16 answers an empty <ETag/>: the object's own HEAD then says it (a write racing this one could be read
    // instead; only unconditional puts come here, and the mirror compares ETags only to know a file changed).
    const etag = text(answer, 'ETag') || done.headers.etag || (await transport.send({ method: 'HEAD', key })).headers.etag;
    if (!etag) throw new Error(`the S3 server completed ${name} without an ETag`);
    return etag;
  } catch (error) {
    // Best effort: the upload's parts are otherwise kept (and billed) until a lifecycle rule removes them.
    await abortMultipart(transport, key, uploadId).catch(() => undefined);
    throw error;
  }
}

/** Aborts an upload (its parts deleted), even after the run was stopped; one that is gone already (NoSuchUpload) is no error. */
export async function abortMultipart(transport: S3Transport, key: string, uploadId: string): Promise<S3Response> {
  return transport.send({ method: 'DELETE', key, query: { uploadId }, afterStop: true });
}
