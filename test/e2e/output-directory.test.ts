/** `swapx swaps -o FILE` where FILE is a directory: a cron job must fail loudly, before any request. */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';

// Nothing listens here: a run that sends a request fails with a window error, not the usage error wanted.
const env = { SWAPX_BASE_URL: 'http://127.0.0.1:9', SWAPX_CLIENT_ID: 'demo', SWAPX_API_KEY: 'demo', SWAPX_CONFIG_DIR: '/nonexistent/swapx-review' };
const range = ['--from', '2026-11-02T00:00:00Z', '--to', '2026-11-02T01:00:00Z'];

describe('swapx swaps -o DIRECTORY', () => {
  it('--resume is not "complete already", exit 0: the cron line `... -o /data/xflow/ --resume -q || alert` would never alert', async () => {
    const dir = tempDir();
    const target = path.join(dir, 'exports');
    fs.mkdirSync(target);
    const r = await runSwapx(['swaps', ...range, '-o', target, '--resume', '--retries', '0'], { env });
    // It was exit 0, "<dir> is complete already: nothing to resume", with nothing exported.
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^swapx: error: [^\n]*directory[^\n]*\n$/);
  });

  it('--force is refused before any request (exit 2), not after the whole export is fetched (exit 1 at the rename)', async () => {
    const dir = tempDir();
    const target = path.join(dir, 'exports');
    fs.mkdirSync(target);
    const r = await runSwapx(['swaps', ...range, '-o', target, '--force', '--retries', '0'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^swapx: error: [^\n]*directory[^\n]*\n$/);
    expect(fs.readdirSync(dir)).toEqual(['exports']);
  });
});
