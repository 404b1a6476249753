/** `swapx sandbox` as a user runs it: serves until Ctrl-C, loopback by default, a warning elsewhere. */
import { describe, expect, it } from 'vitest';
import { once } from 'node:events';
import path from 'node:path';
import { collect, sandboxEnv, spawnCli, tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';

async function firstLine(child: ReturnType<typeof spawnCli>): Promise<string> {
  let text = '';
  child.stdout!.setEncoding('utf8');
  for await (const chunk of child.stdout!) {
    text += chunk as string;
    if (text.includes('\n')) break;
  }
  return text.split('\n')[0]!;
}

describe('swapx sandbox', () => {
  it('serves on loopback, answers the CLI, and exits 0 on SIGINT', async () => {
    const child = spawnCli(['sandbox', '--port', '0', '--seed', '5']);
    const url = await firstLine(child);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const r = await runSwapx(['chains', '--jsonl'], { env: sandboxEnv(url, path.join(tempDir(), 'cfg')) });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('{"blockchainId":"ethereum","name":"Ethereum","explorerUrl":"https://etherscan.io"}');
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.kill('SIGINT');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(stderr).not.toContain('warning');
  });

  it('warns when asked to bind beyond loopback', async () => {
    const child = spawnCli(['sandbox', '--port', '0', '--host', '0.0.0.0']);
    const done = collect(child);
    await new Promise((resolve) => child.stdout!.once('data', resolve));
    child.kill('SIGTERM');
    const r = await done;
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n')[0]).toBe('warning: binding to 0.0.0.0: the sandbox is reachable from other machines, with the demo credentials');
  });
});
