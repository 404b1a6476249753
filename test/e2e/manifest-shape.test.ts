/** `swapx swaps -o FILE` with a manifest swapx did not write: one clear line and exit 2, never a JavaScript error. */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';

// No request is ever sent: the manifest is read first, and the base URL points nowhere.
const env = { SWAPX_BASE_URL: 'http://127.0.0.1:9', SWAPX_CLIENT_ID: 'demo', SWAPX_API_KEY: 'demo', SWAPX_CONFIG_DIR: '/nonexistent/swapx-review' };
const range = ['--from', '2026-11-02T00:00:00Z', '--to', '2026-11-02T01:00:00Z'];

describe('swapx swaps: a manifest of the wrong shape', () => {
  it.each([
    ['null', 'null'],
    ['a query without its fields', JSON.stringify({ version: 1, bytes: 0, windowsDone: 0, query: { from: '2026-11-02T00:00:00Z' } })],
  ])('%s is exit 2 "not an export manifest swapx can read", with or without --resume', async (_name, text) => {
    const dir = tempDir();
    const file = path.join(dir, 'x.jsonl');
    fs.writeFileSync(`${file}.partial`, '');
    fs.writeFileSync(`${file}.partial.manifest.json`, text);
    const expected = `swapx: error: ${file}.partial.manifest.json is not an export manifest swapx can read; delete it and the partial file beside it to start over\n`;
    // It was exit 1 "Cannot read properties of null (reading 'version')" and exit 1 "fields is not iterable" ("r is not iterable" from the bundled bin).
    for (const extra of [['--resume'], []]) {
      const r = await runSwapx(['swaps', ...range, '-o', file, ...extra], { env });
      expect([r.code, r.stdout, r.stderr]).toEqual([2, '', expected]);
    }
  });
});
