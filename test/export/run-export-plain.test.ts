/**
 * The table without a terminal's look is plain by choice, not because the test process has no colours: here chalk's
 * own default is full colour (as under FORCE_COLOR=3), and the table in a pipe or a FILE still has none.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it, vi } from 'vitest';
// Imported before the module reset below: the instance whose temp dirs test/helpers/cleanup.ts removes.
import { tempDir } from '../helpers/cli.js';

vi.mock('chalk', async (importOriginal) => {
  const real = await importOriginal<typeof import('chalk')>();
  class Chalk extends real.Chalk {
    constructor(options: { level?: 0 | 1 | 2 | 3 } = {}) {
      super({ level: 3, ...options });
    }
  }
  return { ...real, Chalk };
});

// Files share their module cache: run-export loaded by another file would hold the real chalk, and the copies
// loaded here over the stand-in must not reach the files after this one.
vi.resetModules();
afterAll(() => {
  vi.doUnmock('chalk');
  vi.resetModules();
});
const { runExport } = await import('../../src/export/run-export.js');
const { LIST_SWAP_FIELDS } = await import('../../src/api/types.js');
const { planExport } = await import('../../src/export/plan.js');
const { BASE, MIN, serve, swap } = await import('../helpers/served-windows.js');

const HEADER =
  'withdrawnAt           bridge              route                                deposit            withdrawal          USD  USD check         id';

function tablePlan(file: string | undefined) {
  return planExport({
    from: BASE,
    to: BASE + 10 * MIN,
    windowMs: 10 * MIN,
    output: { file, format: 'table', gzip: false, fields: [...LIST_SWAP_FIELDS], excelSafe: false },
    concurrency: 1,
    now: BASE + 86_400_000,
  });
}

describe('the table without a look', () => {
  it('is plain on stdout and in FILE, whatever chalk would choose by default', async () => {
    const { Chalk } = await import('chalk');
    expect(new Chalk().level).toBe(3);
    const stdout = new PassThrough();
    const chunks: Buffer[] = [];
    stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    await runExport(tablePlan(undefined), { client: serve(() => [swap('a', 1)]).client, baseUrl: 'http://127.0.0.1:1', stdout });
    expect(Buffer.concat(chunks).toString('utf8').split('\n')[0]).toBe(HEADER);

    const file = path.join(tempDir('swapx-run-export-plain-'), 'out.txt');
    await runExport(tablePlan(file), { client: serve(() => [swap('a', 1)]).client, baseUrl: 'http://127.0.0.1:1', stdout: new PassThrough() });
    expect(fs.readFileSync(file, 'utf8').split('\n')[0]).toBe(HEADER);
  });
});
