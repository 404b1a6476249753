/**
 * Issue "the people, round two", 3: a login that cannot reach the default API says how to name another. The default
 * is pointed at a closed loopback port here, so the test never depends on the network.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { cliEnv, tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';

vi.mock('../../src/api/bounds.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/api/bounds.js')>()),
  DEFAULT_BASE_URL: 'http://127.0.0.1:9',
}));

describe('auth login against an unreachable default API', () => {
  it('names --base-url and SWAPX_BASE_URL in one line, exit 1, nothing stored', async () => {
    const dir = path.join(tempDir(), 'cfg');
    const r = await runSwapx(['auth', 'login', '--retries', '0', '--client-id', 'acme', '--api-key-stdin'], {
      env: cliEnv({ SWAPX_CONFIG_DIR: dir }),
      input: 'k',
    });
    expect([r.code, r.stdout, r.stderr]).toEqual([
      1,
      '',
      'swapx: error: cannot reach the default API, http://127.0.0.1:9 (connection to 127.0.0.1:9 failed: connection refused); nothing was stored: for another API, give --base-url URL (kept in the profile) or set SWAPX_BASE_URL\n',
    ]);
    expect(fs.existsSync(path.join(dir, 'config.json'))).toBe(false);
  });
  it('an address the user named is not second-guessed: the error is the connection’s own', async () => {
    const r = await runSwapx(['auth', 'login', '--retries', '0', '--base-url', 'http://127.0.0.1:9', '--client-id', 'acme', '--api-key-stdin'], {
      env: cliEnv({ SWAPX_CONFIG_DIR: path.join(tempDir(), 'cfg') }),
      input: 'k',
    });
    expect([r.code, r.stderr]).toEqual([1, 'swapx: error: connection to 127.0.0.1:9 failed: connection refused\n']);
  });
});
