/**
 * Standard output that fails under a command (a full disk, a device error): one line naming the problem, exit 1,
 * no stack trace; a closed pipe is the reader's choice (exit 0, nothing said). In-process with a stream that fails
 * every write, and through the real bin into /dev/full.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { BIN, sandboxEnv, tempDir } from '../helpers/cli.js';
import { Capture, runSwapx } from '../helpers/run.js';

/** A stream whose every write fails as a full disk's (or a failing device's) does. */
class Failing extends Writable {
  constructor(private readonly code: string) {
    super();
  }
  override _write(_chunk: unknown, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    callback(Object.assign(new Error(`${this.code}: the disk says no, write`), { code: this.code, syscall: 'write' }));
  }
}

let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
let hash: string;
const RANGE = ['--from', '2026-11-02T00:00:00Z', '--to', '2026-11-02T02:00:00Z'];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 7 });
  env = sandboxEnv(sandbox.url, path.join(tempDir(), 'cfg'));
  const listed = await runSwapx(['swaps', ...RANGE, '--jsonl', '-q'], { env });
  hash = (JSON.parse(listed.stdout.split('\n')[0]!) as { sourceTransaction: string }).sourceTransaction;
});
afterAll(async () => {
  await sandbox.close();
});

const COMMANDS: Record<string, () => string[]> = {
  chains: () => ['chains', '--csv'],
  tokens: () => ['tokens', 'ethereum', '--all'],
  bridges: () => ['bridges', '--json'],
  swap: () => ['swap', hash],
  swaps: () => ['swaps', ...RANGE, '--jsonl', '--window', '5m'],
  'swaps --dry-run': () => ['swaps', ...RANGE, '--dry-run'],
  'config list': () => ['config', 'list'],
  completion: () => ['completion', 'bash'],
  help: () => ['--help'],
};

describe.each(Object.entries(COMMANDS))('swapx %s into a failing standard output', (_name, args) => {
  it.each([
    ['ENOSPC', 'no space left on device'],
    ['EIO', 'input/output error'],
  ])('%s: one line naming the problem, exit 1', async (code, reason) => {
    const stderr = new Capture();
    const r = await runSwapx(args(), { env, stdout: new Failing(code) as unknown as Capture, stderr });
    expect([r.code, stderr.text]).toEqual([1, `swapx: error: cannot write to standard output: ${reason}\n`]);
  });
  it('EPIPE: the reader closed the pipe, exit 0, nothing said', async () => {
    const stderr = new Capture();
    const r = await runSwapx(args(), { env, stdout: new Failing('EPIPE') as unknown as Capture, stderr });
    expect([r.code, stderr.text]).toEqual([0, expect.stringMatching(/^(Exported [^\n]*\n)?$/)]);
  });
});

describe('the real bin into /dev/full', () => {
  const full = fs.existsSync('/dev/full');
  it.skipIf(!full).each([
    ['chains', () => ['chains', '--csv']],
    ['swaps', () => ['swaps', ...RANGE, '--jsonl', '-q']],
    ['--version', () => ['--version']],
  ])('swapx %s > /dev/full: one line, exit 1', async (_name, args) => {
    const out = fs.openSync('/dev/full', 'w');
    try {
      const child = spawn(process.execPath, [BIN, ...args()], { env, stdio: ['pipe', out, 'pipe'] });
      let stderr = '';
      child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.stdin!.end();
      const code = await new Promise((resolve) => child.on('close', resolve));
      expect([code, stderr]).toEqual([1, 'swapx: error: cannot write to standard output: no space left on device\n']);
    } finally {
      fs.closeSync(out);
    }
  });
});
