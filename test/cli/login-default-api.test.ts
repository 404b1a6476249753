/**
 * Issue "the people, round two", 3: a login that cannot reach the default API says how to name another. The default
 * is pointed at a closed loopback port here, so the test never depends on the network. Test files share one module
 * graph per worker (isolate: false), so this one imports the entry point afresh with the mock, and leaves a fresh
 * registry behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cliEnv, tempDir } from '../helpers/cli.js';
import { Capture } from '../helpers/run.js';

let run: typeof import('../../src/main.js').run;
beforeAll(async () => {
  vi.resetModules();
  vi.doMock('../../src/api/bounds.js', async (importOriginal) => ({
    ...(await importOriginal<typeof import('../../src/api/bounds.js')>()),
    DEFAULT_BASE_URL: 'http://127.0.0.1:9',
  }));
  ({ run } = await import('../../src/main.js'));
});
afterAll(() => {
  vi.doUnmock('../../src/api/bounds.js');
  vi.resetModules();
});

async function login(args: string[], configDir: string) {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await run(['auth', 'login', '--retries', '0', ...args, '--client-id', 'acme', '--api-key-stdin'], {
    stdout,
    stderr,
    stdin: Readable.from([Buffer.from('k')]),
    env: cliEnv({ SWAPX_CONFIG_DIR: configDir }),
  });
  return [code, stdout.text, stderr.text];
}

describe('auth login against an unreachable default API', () => {
  it('names --base-url and SWAPX_BASE_URL in one line, exit 1, nothing stored', async () => {
    const dir = path.join(tempDir(), 'cfg');
    expect(await login([], dir)).toEqual([
      1,
      '',
      'swapx: error: cannot reach the default API, http://127.0.0.1:9 (connection to 127.0.0.1:9 failed: connection refused); nothing was stored: for another API, give --base-url URL (kept in the profile) or set SWAPX_BASE_URL\n',
    ]);
    expect(fs.existsSync(path.join(dir, 'config.json'))).toBe(false);
  });
  it('an address the user named is not second-guessed: the error is the connection’s own', async () => {
    expect(await login(['--base-url', 'http://127.0.0.1:9'], path.join(tempDir(), 'cfg'))).toEqual([
      1,
      '',
      'swapx: error: connection to 127.0.0.1:9 failed: connection refused\n',
    ]);
  });
});
