/** Issue 22.12: a wrong name gets the right name back, before anything is sent or started. */
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { cliEnv, sandboxEnv, tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

describe('names', () => {
  it('swapx version points to --version', async () => {
    const r = await runSwapx(['version']);
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', "swapx: unknown command 'version' (Did you mean --version?)\n"]);
  });
  it('an unknown profile is named as such, with the known ones, not as a missing login', async () => {
    const config = path.join(tempDir(), 'cfg');
    const env = cliEnv({ SWAPX_BASE_URL: sandbox.url, SWAPX_CONFIG_DIR: config });
    const login = await runSwapx(['auth', 'login', '--profile', 'work', '--client-id', 'demo', '--api-key-stdin'], { env, input: 'demo' });
    expect(login.code).toBe(0);
    const before = sandbox.stats().requests;
    const r = await runSwapx(['--profile', 'nosuch', 'chains'], { env });
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      "swapx: error: --profile: unknown profile 'nosuch' (known: work); create it with 'swapx auth login --profile nosuch'\n",
    ]);
    const fromEnv = await runSwapx(['chains'], { env: { ...env, SWAPX_PROFILE: 'nosuch' } });
    expect(fromEnv.stderr).toBe("swapx: error: SWAPX_PROFILE: unknown profile 'nosuch' (known: work); create it with 'swapx auth login --profile nosuch'\n");
    expect(sandbox.stats().requests).toBe(before);
    // The stored one works; the default profile, never made, is still a login to do (exit 3).
    expect((await runSwapx(['--profile', 'work', 'chains'], { env })).code).toBe(0);
    expect((await runSwapx(['chains'], { env })).code).toBe(3);
  });
  it('a bad SWAPX_PROFILE is reported as SWAPX_PROFILE, not as --profile', async () => {
    const r = await runSwapx(['chains'], { env: cliEnv({ SWAPX_PROFILE: 'a b' }) });
    expect([r.code, r.stderr]).toEqual([
      2,
      "swapx: error: SWAPX_PROFILE must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit, not 'a b'\n",
    ]);
  });
  it('a base URL ending in /v1 is named as the cause of the 404', async () => {
    const r = await runSwapx(['chains'], { env: sandboxEnv(`${sandbox.url}/v1`, path.join(tempDir(), 'cfg')) });
    expect(r.stderr).toBe(
      `swapx: error: not found: Not Found (GET /v1/v1/external/chains); the base URL ${sandbox.url}/v1 ends in /v1, which swapx adds to every path: use ${sandbox.url}\n`,
    );
  });
  it('sandbox on a busy port says so in words, exit 1', async () => {
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as net.AddressInfo).port;
    try {
      const r = await runSwapx(['sandbox', '--port', String(port)]);
      expect([r.code, r.stdout, r.stderr]).toEqual([
        1,
        '',
        `swapx: error: 127.0.0.1:${port} is in use (another sandbox?): stop it, or pick another --port (--port 0 takes a free one)\n`,
      ]);
    } finally {
      busy.close();
    }
  });
});
