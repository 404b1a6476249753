/** Issue 11.9 and 11.10: `tokens` says when it shows part of a chain's tokens, and suggests the chain meant. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { closest } from '../../src/util/suggest.js';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';

let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  env = sandboxEnv(sandbox.url, tempDir());
});
afterAll(async () => {
  await sandbox.close();
});

describe('tokens <chain> without --all', () => {
  it('says on stderr how many of how many it shows and how to get all', async () => {
    const r = await runSwapx(['tokens', 'ethereum'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(100);
    expect(r.stderr).toBe('Showing 100 of 2,731 tokens: --all lists every one; --take and --offset page\n');
  });
  it('names the offset, and is silent with -q', async () => {
    expect((await runSwapx(['tokens', 'ethereum', '--take', '5', '--offset', '20'], { env })).stderr).toBe(
      'Showing 5 of 2,731 tokens from offset 20: --all lists every one; --take and --offset page\n',
    );
    expect((await runSwapx(['tokens', 'ethereum', '--take', '5', '-q'], { env })).stderr).toBe('');
  });
  it('is silent when every token is shown', async () => {
    const r = await runSwapx(['tokens', 'bitcoin'], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});

describe('an unknown chain', () => {
  it('suggests the closest ids (exit 4)', async () => {
    const r = await runSwapx(['tokens', 'etherum'], { env });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe("swapx: error: unknown chain 'etherum'; did you mean ethereum? ('swapx chains' lists the ids)\n");
  });
  it('says only where to look when nothing is close', async () => {
    const r = await runSwapx(['tokens', 'xyzzy'], { env });
    expect(r.code).toBe(4);
    expect(r.stderr).toBe("swapx: error: unknown chain 'xyzzy' ('swapx chains' lists the ids)\n");
  });
  it('closest: typos, prefixes and case, nearest first', () => {
    const ids = ['ethereum', 'arbitrum', 'base', 'optimism', 'polygon', 'bsc', 'solana', 'bitcoin', 'near', 'ton', 'tron'];
    expect(closest('Ethreum', ids)).toEqual(['ethereum']);
    expect(closest('arb', ids)).toEqual(['arbitrum']);
    expect(closest('tonn', ids)).toEqual(['ton', 'tron']);
    expect(closest('zzzzzz', ids)).toEqual([]);
  });
});

describe('tokens --all', () => {
  it('warns when a page comes back empty before totalCount is reached', async () => {
    const http = await import('node:http');
    // 1,500 tokens promised; the second page is empty.
    const server = http.createServer((req, res) => {
      const offset = Number(new URL(req.url ?? '', 'http://x').searchParams.get('Offset'));
      const items = offset === 0 ? Array.from({ length: 1000 }, (_, i) => ({ symbol: `T${i}`, name: null, contract: null, url: null })) : [];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ items, totalCount: 1500 }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const r = await runSwapx(['tokens', 'short', '--all', '--jsonl'], { env: { ...env, SWAPX_BASE_URL: `http://127.0.0.1:${port}` } });
      expect(r.code).toBe(0);
      expect(r.stdout.trimEnd().split('\n')).toHaveLength(1000);
      expect(r.stderr).toBe('warning: short: the API reports 1500 tokens but returned an empty page at offset 1000: listed 1000\n');
    } finally {
      server.close();
    }
  });
});
