/**
 * `-o` naming something that is not a regular file (a device such as /dev/null, a FIFO, a socket): refused before any
 * request. It used to be "exists; add --force", and with --force the export was renamed over it (as root,
 * `-o /dev/null --force` replaced the device with a regular file).
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';
import { DATA, envIn } from '../helpers/swaps-fixture.js';

let plain: RunningSandbox;
let dir: string;

beforeAll(async () => {
  dir = tempDir();
  plain = await startSandbox({ port: 0, ...DATA });
});
afterAll(async () => {
  await plain.close();
});

describe('swapx swaps -o SPECIAL-FILE --force', () => {
  it('never renames the export over a socket (or a FIFO, a device): it is refused before any request, exit 2', async () => {
    // A listening Unix socket stands for any file that is not a regular one (a FIFO or a device needs a binary or root).
    const fifo = path.join(dir, 'pipe.jsonl');
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(fifo, resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const before = plain.stats().requests;
    const r = await runSwapx(['swaps', '--from', '2026-11-02T00:00:00Z', '--to', '2026-11-02T00:10:00Z', '-o', fifo, '--force', '-q'], {
      env: envIn(dir, plain),
    });
    expect(fs.lstatSync(fifo).isSocket()).toBe(true);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^swapx: error: [^\n]+\n$/);
    expect(plain.stats().requests).toBe(before);
  });
});
