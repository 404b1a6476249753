/**
 * A large body as a multipart upload: initiated, sent in parts (four at a time, each retried on its own by the
 * transport), completed; aborted when anything fails, so that no invisible parts are left to be billed. Only
 * unconditional puts come here: radosgw ignores If-None-Match and If-Match on CompleteMultipartUpload (AWS
 * enforces them), so a conditional put is always one PUT (client.ts), which both enforce.
 */
import type { S3Response, S3Transport } from './transport.js';
import { escapeXml, text } from './xml.js';

/** A body past this goes in parts: far above what the mirror's state and indexes weigh, at the size of a big partition. */
export const MULTIPART_THRESHOLD = 64 * 1024 * 1024;
/** S3 refuses parts under 5 MiB (but the last) and more than 10,000 parts: 16 MiB parts carry up to 156 GiB. */
export const PART_SIZE = 16 * 1024 * 1024;
const PARALLEL_PARTS = 4;

export interface MultipartContext {
  transport: S3Transport;
  /** the answer of a request that failed, as the error to throw (refusals.ts) */
  refused: (response: S3Response, what: string) => Error;
  /** the object as messages name it (s3://bucket/key) */
  name: string;
}

export async function putMultipart(context: MultipartContext, key: string, body: Buffer, partSize: number): Promise<string> {
  const { transport, refused, name } = context;
  const started = await transport.send({ method: 'POST', key, query: { uploads: '' } });
  if (started.status !== 200) throw refused(started, `a multipart upload of ${name}`);
  const uploadId = text(started.body.toString('utf8'), 'UploadId');
  if (!uploadId) throw new Error(`the S3 server started a multipart upload of ${name} without an UploadId`);
  try {
    const count = Math.max(1, Math.ceil(body.length / partSize));
    const etags: string[] = new Array(count);
    let next = 0;
    const worker = async () => {
      while (next < count) {
        const index = next++;
        const part = body.subarray(index * partSize, Math.min(body.length, (index + 1) * partSize));
        const sent = await transport.send({ method: 'PUT', key, query: { partNumber: String(index + 1), uploadId }, body: part });
        if (sent.status !== 200 || !sent.headers.etag) throw refused(sent, `part ${index + 1} of ${name}`);
        etags[index] = sent.headers.etag;
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_PARTS, count) }, worker));
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
    await transport.send({ method: 'DELETE', key, query: { uploadId } }).catch(() => undefined);
    throw error;
  }
}
