/** Issue 11.20: stopping the sandbox does not first compute every answer already queued (it took seconds on a dense sandbox). */
import { describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';

describe('sandbox close', () => {
  it('answers queued behind a long one are dropped once close() is called', async () => {
    let answered = 0;
    let sandbox: RunningSandbox | undefined;
    let closed: Promise<void> | undefined;
    sandbox = await startSandbox({
      port: 0,
      swapsPerHour: 20_000,
      onRequest: () => {
        answered += 1;
        // As a Ctrl-C would: stop on a later turn of the event loop, not inside the answer.
        setImmediate(() => (closed ??= sandbox!.close()));
      },
    });
    const auth = { authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}` };
    const requests = Array.from({ length: 8 }, (_, i) =>
      fetch(`${sandbox!.url}/v1/external/swaps?From=2026-11-0${i + 1}T00:00:00Z&To=2026-11-0${i + 1}T00:30:00Z`, { headers: auth })
        .then((r) => r.text())
        .catch(() => 'dropped'),
    );
    const bodies = await Promise.all(requests);
    await closed;
    expect(answered).toBe(1);
    expect(bodies).toHaveLength(8);
  });
});

describe('swapx sandbox --host 0.0.0.0', () => {
  it('prints a URL swapx accepts (loopback), and swapx works with the hint as printed', async () => {
    const { Capture, runSwapx } = await import('../helpers/run.js');
    const { tempDir } = await import('../helpers/cli.js');
    const stop = new AbortController();
    const stdout = new Capture();
    const stderr = new Capture();
    const running = runSwapx(['sandbox', '--port', '0', '--host', '0.0.0.0'], { stdout, stderr, signal: stop.signal });
    while (!stdout.text.includes('\n')) await new Promise((resolve) => setTimeout(resolve, 10));
    const url = stdout.text.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const hint = stderr.text.split('\n').find((line) => line.includes('try:'))!;
    expect(hint).toBe(`  try: SWAPX_BASE_URL=${url} SWAPX_CLIENT_ID=demo SWAPX_API_KEY=demo swapx chains`);
    const env = { SWAPX_BASE_URL: url, SWAPX_CLIENT_ID: 'demo', SWAPX_API_KEY: 'demo', SWAPX_CONFIG_DIR: tempDir(), NO_COLOR: '1' };
    const chains = await runSwapx(['chains', '--fields', 'blockchainId', '--csv'], { env });
    expect(chains.code).toBe(0);
    expect(chains.stdout.split('\n')[1]).toBe('ethereum');
    stop.abort();
    expect((await running).code).toBe(0);
  });
  it('reachableUrl maps wildcard binds to loopback and leaves others alone', async () => {
    const { reachableUrl } = await import('../../src/commands/sandbox-run.js');
    expect(reachableUrl('http://0.0.0.0:8787')).toBe('http://127.0.0.1:8787');
    expect(reachableUrl('http://[::]:8787')).toBe('http://[::1]:8787');
    expect(reachableUrl('http://192.168.1.5:8787')).toBe('http://192.168.1.5:8787');
  });
});
