/**
 * What the chaos run brought to light, kept as tests: a short write (a filling disk writes what
 * fits) must never be taken for a whole one, and a full disk must say what is saved and how to go on.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SWAP_FIELDS } from '../../src/api/types.js';
import type { ExportQuery } from '../../src/export/manifest.js';
import { PartialFile } from '../../src/export/partial-file.js';
import { createEncoder } from '../../src/output/encode.js';
import { jsonlCodec } from '../../src/formats/jsonl.js';
import { LocalStorage } from '../../src/mirror/folder/local-storage.js';
import { writePartition } from '../../src/mirror/partitions/partitions.js';
import { mountSupport, remount } from '../../scripts/chaos/faults.js';
import { Chaos } from '../../scripts/chaos/chaos.js';
import { BIN, tempDir } from '../helpers/cli.js';

/**
 * fs.open, with the first write of a file whose name matches `pattern` cut to half its length, as
 * write(2) does when the disk fills mid-write (or a quota or file size limit is reached): it writes
 * what fits and returns the count, without an error. Node's FileHandle.write makes that one call.
 */
function shortFirstWrite(pattern: RegExp): void {
  const open = fsp.open.bind(fsp);
  vi.spyOn(fsp, 'open').mockImplementation(async (...args: Parameters<typeof fsp.open>) => {
    const handle = await open(...args);
    if (!pattern.test(String(args[0]))) return handle;
    const write = handle.write.bind(handle) as (
      buffer: Buffer,
      offset: number,
      length: number,
      position?: number | null,
    ) => Promise<{ bytesWritten: number; buffer: Buffer }>;
    let cut = false;
    handle.write = ((buffer: Buffer, offset = 0, length = buffer.length - offset, position?: number | null) => {
      if (!cut && length > 1) {
        cut = true;
        return write(buffer, offset, Math.floor(length / 2), position);
      }
      return write(buffer, offset, length, position);
    }) as typeof handle.write;
    return handle;
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('short writes are taken for whole ones', () => {
  it('export: PartialFile.append writes the rest after a short write (no hole of NUL bytes)', async () => {
    shortFirstWrite(/\.partial$/);
    const target = path.join(tempDir('swapx-short-'), 'x.jsonl');
    const query: ExportQuery = {
      baseUrl: 'http://127.0.0.1:1',
      filter: null,
      from: '2026-11-01T00:00:00Z',
      to: '2026-11-01T01:00:00Z',
      windowMs: 1_800_000,
      format: 'jsonl',
      fields: [...SWAP_FIELDS],
      gzip: false,
      excelSafe: false,
    };
    const file = await PartialFile.start(target, query, 2);
    await file.append('{"id":"a"}\n', { windowsDone: 1, swaps: 1, dropped: 0 });
    await file.append('{"id":"b"}\n', { windowsDone: 2, swaps: 2, dropped: 0 });
    await file.complete('');
    // Either the whole text is written (write again for the rest) or append fails: never a file like '{"id":\0\0\0\0\0{"id":"b"}\n'.
    expect(fs.readFileSync(target, 'utf8')).toBe('{"id":"a"}\n{"id":"b"}\n');
  });

  it('sync: writePartition writes the rest of a partition after a short write (no swap lost, no line cut)', async () => {
    shortFirstWrite(/\.part\..*\.tmp$/);
    const dir = tempDir('swapx-short-');
    const codec = jsonlCodec(false, createEncoder('jsonl', { fields: ['id', 'completedAt'], allFields: ['id', 'completedAt'] }));
    const row = (id: string) => codec.row({ id, completedAt: '2026-11-01T00:00:00Z' } as never);
    const file = path.join(dir, 'date=2026-11-01', 'part.jsonl');
    await writePartition(new LocalStorage(dir), 'date=2026-11-01/part.jsonl', [row('c'), row('a'), row('b')], codec);
    const at = '"completedAt":"2026-11-01T00:00:00Z"';
    expect(fs.readFileSync(file, 'utf8')).toBe(`{"id":"a",${at}}\n{"id":"b",${at}}\n{"id":"c",${at}}\n`);
  });
});

const noMount = mountSupport();

describe.skipIf(noMount !== undefined)(`a full disk: the one-line error says what to do${noMount ? ` (skipped: ${noMount})` : ''}`, () => {
  let chaos: Chaos;
  let mnt: string;
  let query: { from: number; to: number; window: string; concurrency: number };
  beforeAll(() => {
    chaos = new Chaos({ seed: 7, swapsPerHour: 600 });
    mnt = path.join(chaos.root, 'mnt');
    query = { ...chaos.range(1, 2), window: '10m', concurrency: 1 };
  });
  const mount = () => {
    fs.mkdirSync(mnt, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=300k', 'tmpfs', mnt]);
  };
  const unmount = () => {
    if (fs.readFileSync('/proc/self/mountinfo', 'utf8').includes(` ${mnt} `)) execFileSync('umount', ['-l', mnt]);
  };
  afterEach(unmount);
  afterAll(() => chaos?.close());

  // Latency: an export checkpoints at most every 250 ms, so windows this slow are checkpointed before the disk fills.
  const spawnOn = async (sandbox: Awaited<ReturnType<Chaos['sandbox']>>, args: string[]) => {
    // Asynchronous: the sandbox answers from this process.
    const child = spawn(process.execPath, [BIN, ...args], { env: chaos.env(sandbox) });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { code, stderr };
  };
  const run = async (args: string[], latencyMs = 0) => {
    const sandbox = await chaos.sandbox({ latencyMs });
    try {
      return await spawnOn(sandbox, args);
    } finally {
      await chaos.stopSandbox(sandbox);
    }
  };

  it('export: ENOSPC names the file, what is saved and the resume command', async () => {
    mount();
    const file = path.join(mnt, 'x.jsonl');
    const r = await run(chaos.exportArgs(query, file, ['-q']), 300);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^swapx: error: writing \S+x\.jsonl: no space left on device; \d+\/\d+ windows saved in \S+x\.jsonl\.partial; resume with: swapx swaps .* --resume\n$/,
    );
  });

  it('sync: ENOSPC says how far the sync got and to run again', async () => {
    mount();
    const r = await run(chaos.syncArgs(query, path.join(mnt, 'out'), ['-q']));
    expect(r.code).toBe(1);
    // --summary-json: the failure is a JSON line of the log.
    const failure = JSON.parse(r.stderr) as Record<string, unknown>;
    expect(failure).toMatchObject({ event: 'sync-failed', exitCode: 1, error: 'WrappedError' });
    expect(failure.message).toMatch(/^writing \S+out: no space left on device; synced up to \S+Z; run the same command again to continue$/);
  });

  it('sync: a first run that filled the disk after it committed keeps what it did; the cron line (no --since) goes on', async () => {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mnt]);
    const out = path.join(mnt, 'out');
    const sandbox = await chaos.sandbox({});
    try {
      // A commit after every window: the first fits, the second (the day's partition rewritten, twice its size) does not.
      const first = await spawnOn(sandbox, chaos.syncArgs(query, out, ['-q', '--checkpoint-every', '0']));
      expect(first.code).toBe(1);
      const state = JSON.parse(fs.readFileSync(path.join(out, '.swapx-sync.json'), 'utf8')) as { since: string; cursor: string };
      // It was: the state removed while the partition stayed; the cron line then exited 2, "the first run needs --since".
      expect(Date.parse(state.cursor)).toBeGreaterThan(Date.parse(state.since));
      remount(mnt, 'size=8m');
      const args = chaos.syncArgs(query, out, ['-q']);
      const cron = await spawnOn(
        sandbox,
        args.filter((_, i) => args[i] !== '--since' && args[i - 1] !== '--since'),
      );
      expect(cron.code).toBe(0);
      expect(JSON.parse(cron.stderr)).toMatchObject({ event: 'sync-step', complete: true, cursor: new Date(query.to).toISOString().replace('.000Z', 'Z') });
    } finally {
      await chaos.stopSandbox(sandbox);
    }
  });
});
