/**
 * An export to an object, `-o s3://BUCKET/KEY`: the export is made as a file in its stage (stage.ts) by runExport,
 * with everything a file export has (the lock, the checkpoints, --resume, --force), then uploaded whole: one PUT, or
 * a multipart upload (completed in one request) for a large file, so that the object appears whole or not at all.
 * The stage is removed only once the object landed; an upload that fails leaves the finished file, and the same
 * command run again uploads it without fetching anything. Loaded only for an s3:// -o, with the lake's client.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { acquireLock } from '../../fs/lock.js';
import type { S3Client } from '../../mirror/lake/s3/client.js';
import { parseS3Object, type S3ObjectUrl } from '../../mirror/lake/s3/location.js';
import type { BodySource } from '../../mirror/lake/s3/multipart.js';
import { openS3Client, type OpenS3Options } from '../../mirror/lake/s3/open.js';
import { formatOf } from '../../formats/registry.js';
import type { ExportPlan } from '../plan.js';
import { TargetRefusedError, UploadFailedError } from '../errors.js';
import { compareSaved, queryOf } from '../manifest.js';
import { checkWrittenAfter } from '../target.js';
import { partialPaths } from '../partial-file.js';
import { type ExportDeps, type ExportOutcome, type RunEvent, runExport } from '../run-export.js';
import type { ExportSummary } from '../exporter.js';
import { readRecord, recordPath, type StageRecord, writeRecord } from './stage.js';

export interface ObjectExportDeps extends ExportDeps {
  /** how the object store is reached: the environment, -v's attempt log, the signal, the part sizes */
  s3: OpenS3Options;
}

export type ObjectEvent =
  | RunEvent
  /** the store is reached: where, which endpoint and region, where the credentials came from (no secret), for -v */
  | { type: 'store'; description: string }
  /** the finished file goes up; `earlier`: finished by an earlier run, whose upload failed */
  | { type: 'uploading'; object: string; bytes: number; earlier: boolean };

export type ObjectOutcome =
  /** exported, then uploaded */
  | { status: 'exported'; plan: ExportPlan; summary: ExportSummary; bytes: number }
  /** an export finished by an earlier run, uploaded: nothing was fetched */
  | { status: 'uploaded'; plan: ExportPlan; file: string; bytes: number }
  /** --resume found the object there, written after the range ended: nothing to do */
  | { status: 'complete' };

export async function runExportToObject(
  plan: ExportPlan,
  deps: ObjectExportDeps,
  onEvent: (event: ObjectEvent) => void | Promise<void> = () => {},
): Promise<ObjectOutcome> {
  const target = parseS3Object(plan.output.object!);
  const file = plan.output.file!;
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  // One run per object on this machine, from the look at what is there to the upload (runExport's own lock covers
  // only the export): a second would upload, or discard, what the first is writing.
  const lock = await acquireLock(dir, { name: 'upload.lock', what: 'export', where: target.url });
  try {
    const { client, description } = await openS3Client(target.location, deps.s3);
    try {
      await onEvent({ type: 'store', description });
      return await exportAndUpload(plan, target, client, deps, onEvent);
    } finally {
      await client.close();
    }
  } finally {
    await lock.release();
    // Empty once the object landed, or when nothing was begun (the lock's file goes with its release); else kept.
    await fs.rmdir(dir).catch(() => {});
  }
}

async function exportAndUpload(
  plan: ExportPlan,
  target: S3ObjectUrl,
  client: S3Client,
  deps: ObjectExportDeps,
  onEvent: (event: ObjectEvent) => void | Promise<void>,
): Promise<ObjectOutcome> {
  const file = plan.output.file!;
  let record = await readRecord(file);
  // A multipart upload a killed run left: its parts are deleted before anything else is sent.
  if (record?.uploadId !== undefined) {
    await client.abortUpload(target.name, record.uploadId);
    record = { ...record, uploadId: undefined };
    await writeRecord(file, record);
  }
  if (deps.force) await discardStage(plan);
  else {
    const finished = record && (await exists(file)) ? record : undefined;
    if (finished) {
      // As a resume does: a range read against the clock (--last 24h) takes the saved one.
      const { savedPlan: saved, same, differences, ownRange } = compareSaved(finished.query, plan, deps.baseUrl, deps.resume === true);
      if (!same && !ownRange) throw new TargetRefusedError(target.url, { reason: 'finished', saved, file, differences });
      const bytes = await upload(saved, target, client, finished, true, onEvent);
      return { status: 'uploaded', plan: saved, file, bytes };
    }
    if (!(await exists(partialPaths(file).manifest))) {
      const there = await client.head(target.name);
      if (there && !deps.resume) throw new TargetRefusedError(target.url, { reason: 'exists' });
      if (there) {
        // As for a complete FILE: an object written before the range ended holds another range.
        checkWrittenAfter(target.url, there.lastModified ?? 0, plan);
        return { status: 'complete' };
      }
    }
  }
  let stage: StageRecord | undefined;
  let outcome: ExportOutcome;
  try {
    outcome = await runExport(plan, deps, async (event) => {
      // Before the first window is written: a finished file is always known by the query it holds.
      if (event.type === 'start') {
        stage = { version: 1, object: target.url, query: queryOf(event.plan, deps.baseUrl) };
        await writeRecord(file, stage);
      }
      await onEvent(event);
    });
  } catch (error) {
    // The refusals name the object, as the user gave it, not its stage.
    if (error instanceof TargetRefusedError) throw new TargetRefusedError(target.url, error.refusal);
    throw error;
  }
  if (outcome.status === 'complete' || !stage) throw new Error(`${file} was complete without a record of its query`);
  const bytes = await upload(outcome.plan, target, client, stage, false, onEvent);
  return { status: 'exported', plan: outcome.plan, summary: outcome.summary, bytes };
}

/** Uploads the finished file; once the object landed, the stage's files are removed. */
async function upload(
  plan: ExportPlan,
  target: S3ObjectUrl,
  client: S3Client,
  record: StageRecord,
  earlier: boolean,
  onEvent: (event: ObjectEvent) => void | Promise<void>,
): Promise<number> {
  const file = plan.output.file!;
  try {
    const handle = await fs.open(file, 'r');
    try {
      const { size } = await handle.stat();
      await onEvent({ type: 'uploading', object: target.url, bytes: size, earlier });
      await client.upload(target.name, fileSource(handle, size, file), { onMultipart: (uploadId) => writeRecord(file, { ...record, uploadId }) });
      await fs.rm(file, { force: true });
      await fs.rm(recordPath(file), { force: true });
      return size;
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new UploadFailedError(target.url, file, plan, error);
  }
}

/** A file read a part at a time, at its offsets: a multipart upload holds its parts in flight, never the whole file. */
function fileSource(handle: fs.FileHandle, size: number, file: string): BodySource {
  return {
    size,
    read: async (start, end) => {
      const buffer = Buffer.allocUnsafe(end - start);
      for (let done = 0; done < buffer.length; ) {
        const { bytesRead } = await handle.read(buffer, done, buffer.length - done, start + done);
        if (bytesRead === 0) throw new Error(`${file} ended before its ${size} bytes`);
        done += bytesRead;
      }
      return buffer;
    },
  };
}

/** --force: whatever the stage holds (a finished file, an unfinished export) goes. */
async function discardStage(plan: ExportPlan): Promise<void> {
  const file = plan.output.file!;
  const paths = partialPaths(file);
  const format = formatOf(plan.output.format);
  for (const name of [file, recordPath(file), ...Object.values(paths), ...(format.sideFiles?.(paths.partial) ?? [])]) await fs.rm(name, { force: true });
}

function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}
