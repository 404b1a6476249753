/**
 * The library as a user's code imports it, through package.json's exports (a process of its own, resolving the
 * package by its name as an installed one is): `swapx`, the client; `swapx/sandbox`, the sandbox a pipeline's own
 * tests start in-process; nothing else of dist.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = (code: string) => spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' });

describe('the package exports', () => {
  it("swapx/sandbox starts a sandbox that swapx's client reads", () => {
    const out = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { startSandbox } from 'swapx/sandbox';
         import { createClient } from 'swapx';
         const sandbox = await startSandbox({ port: 0, now: () => Date.parse('2026-11-02T00:00:00Z') });
         const client = createClient({ baseUrl: sandbox.url, credentials: { kind: 'basic', clientId: 'demo', apiKey: 'demo' } });
         const swaps = await client.listSwaps({ from: Date.parse('2026-11-01T00:00:00Z'), to: Date.parse('2026-11-01T00:30:00Z') });
         console.log(swaps.length > 0, typeof swaps[0].id);
         await client.close();
         await sandbox.close();`,
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(out).toBe('true string\n');
  });

  it('exports nothing else of dist', () => {
    const r = run("await import('swapx/dist/windows/plan.js')");
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });
});
