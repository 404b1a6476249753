/** Issue 11.7 and 11.22: tables fit the terminal, honour --fields, show the swap id, and print money for people. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { Capture, runSwapx } from '../helpers/run.js';

let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 3, now: () => Date.parse('2026-11-08T00:00:00Z') });
  env = sandboxEnv(sandbox.url, tempDir());
});
afterAll(async () => {
  await sandbox.close();
});

const MINUTE = ['--from', '2026-11-01T00:00:00Z', '--to', '2026-11-01T00:01:00Z', '-q'];

/** The first `n` lines a command prints on a terminal `columns` wide. */
async function head(argv: string[], columns: number | undefined, n = 3, options: { isTTY?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<string[]> {
  const r = await runSwapx(argv, { env: options.env ?? env, stdout: new Capture({ isTTY: options.isTTY ?? true, columns }) });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const lines = r.stdout.split('\n');
  const limit = options.isTTY === false ? Number(options.env?.COLUMNS ?? 80) : (columns ?? 80);
  for (const line of lines) expect([...line].length).toBeLessThanOrEqual(limit);
  return lines.slice(0, n);
}

describe('swaps table', () => {
  // Issue 22.6 and 22.7: the time with its zone; the id last, whole, so a longer one pushes no column out of line.
  it('at 60 columns: the time and the id in full', async () => {
    expect(await head(['swaps', ...MINUTE], 60)).toEqual([
      'withdrawnAt           id',
      '2026-11-01T00:00:00Z  6ae680109afb274a0910f7db',
      '2026-11-01T00:00:00Z  6ae680880da1f564a90da3ed',
    ]);
  });
  it('at 80 columns: the time, the route, USD and the id in full', async () => {
    expect(await head(['swaps', ...MINUTE], 80)).toEqual([
      'withdrawnAt           route                        USD  id',
      '2026-11-01T00:00:00Z  ethereum → polygon    $15,915.08  6ae680109afb274a0910f7db',
      '2026-11-01T00:00:00Z  arbitrum → optimism      $255.29  6ae680880da1f564a90da3ed',
    ]);
  });
  it('at 120 columns: the bridge, whole, and the withdrawal too', async () => {
    expect(await head(['swaps', ...MINUTE], 120)).toEqual([
      'withdrawnAt           bridge              route                        withdrawal          USD  id',
      '2026-11-01T00:00:00Z  Stargate            ethereum → polygon     15,956.4278 USDC   $15,915.08  6ae680109afb274a0910f7db',
      '2026-11-01T00:00:00Z  Portal (Wormhole)   arbitrum → optimism         146.1486 OP      $255.29  6ae680880da1f564a90da3ed',
    ]);
  });
  it('at 200 columns: every column', async () => {
    expect(await head(['swaps', ...MINUTE], 200)).toEqual([
      'withdrawnAt           bridge              route                                deposit            withdrawal          USD  USD check         id',
      '2026-11-01T00:00:00Z  Stargate            ethereum → polygon          15,978.9285 USDC      15,956.4278 USDC   $15,915.08  OK                6ae680109afb274a0910f7db',
      '2026-11-01T00:00:00Z  Portal (Wormhole)   arbitrum → optimism            255.9613 USDT           146.1486 OP      $255.29  OK                6ae680880da1f564a90da3ed',
    ]);
  });
  it('--fields: exactly those columns; hashes are cut in the middle to fit 80 and whole at 120', async () => {
    const argv = ['swaps', ...MINUTE, '--fields', 'id,sourceTransaction,depositUsdAmount'];
    expect(await head(argv, 80)).toEqual([
      'id                        sourceTransaction                     depositUsdAmount',
      '6ae680109afb274a0910f7db  0x1f33ab1812364c10…0cb1b7c3b525d2b55        $15,931.45',
      '6ae680880da1f564a90da3ed  0x8d28d7acba03343e…0de5dff21f9402a9f           $256.44',
    ]);
    expect(await head(argv, 120, 2)).toEqual([
      'id                        sourceTransaction                                                             depositUsdAmount',
      '6ae680109afb274a0910f7db  0x1f33ab1812364c10022ec377833f7dc226d556385655c360cb1b7c3b525d2b55                  $15,931.45',
    ]);
    // Found trying it at 200 columns: a Solana signature (88 characters) was cut in the middle with room to spare.
    const wide = await head(['swaps', '--from', '2026-11-01T00:00:00Z', '--to', '2026-11-01T01:00:00Z', '-q', '--fields', 'id,sourceTransaction'], 200, 1000);
    const solana = wide.find((line) => /^\S{24} {2}[1-9A-HJ-NP-Za-km-z]{86,88}$/.test(line.trimEnd()));
    expect(solana).toBeDefined();
    expect(wide.filter((line) => line.includes('…'))).toEqual([]);
  });
  it('the id it shows finds the swap with `swapx swap`', async () => {
    const id = (await head(['swaps', ...MINUTE], 80, 2))[1]!.split(' ').at(-1)!;
    const r = await runSwapx(['swap', id, '--json'], { env });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { id: string }[])[0]!.id).toBe(id);
  });
  it('piped (not a terminal) a table is 80 wide whatever the stream says; $COLUMNS is honoured', async () => {
    expect((await head(['swaps', ...MINUTE, '-f', 'table'], 200, 1, { isTTY: false }))[0]).toBe('withdrawnAt           route                        USD  id');
    expect((await head(['swaps', ...MINUTE, '-f', 'table'], undefined, 1, { isTTY: false, env: { ...env, COLUMNS: '120' } }))[0]).toBe(
      'withdrawnAt           bridge              route                        withdrawal          USD  id',
    );
  });
});

describe('lookup tables', () => {
  // Issue 22.7: names whole; the chains list goes first, then the key (the name says which bridge), then the count.
  it('bridges at 60 columns: name, status, volume', async () => {
    expect(await head(['bridges'], 60, 3)).toEqual([
      'name               status         volume',
      'Stargate           Operational   $61.49B',
      'Portal (Wormhole)  Operational   $49.60B',
    ]);
  });
  it('bridges at 80 columns: names whole, the chains list and the key go first; a null swap count is —', async () => {
    const r = await runSwapx(['bridges'], { env, stdout: new Capture({ isTTY: true, columns: 80 }) });
    const lines = r.stdout.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'name               status         volume       swaps  latest swap',
      'Stargate           Operational   $61.49B  22,673,543  2026-11-07T23:58:20Z',
      'Portal (Wormhole)  Operational   $49.60B  11,364,850  2026-11-07T23:58:33Z',
    ]);
    expect(lines).toContain('Meson              Malfunction  $844.89M     152,343  2026-09-29T13:42:29Z');
    expect(lines).toContain('Gas.zip            Warning         $0.00           —  —');
  });
  it('bridges at 120 columns: the chains list, cut at the end; at 200 whole', async () => {
    expect(await head(['bridges'], 120, 2)).toEqual([
      'name               key        status         volume       swaps  latest swap           chains',
      'Stargate           stargate   Operational   $61.49B  22,673,543  2026-11-07T23:58:20Z  ethereum,arbitrum,base,optimism,…',
    ]);
    expect(await head(['bridges'], 200, 2)).toEqual([
      'name               key        status         volume       swaps  latest swap           chains',
      'Stargate           stargate   Operational   $61.49B  22,673,543  2026-11-07T23:58:20Z  ethereum,arbitrum,base,optimism,polygon,bsc,avalanche,linea',
    ]);
  });
  it('chains at 60 columns cut the link in the middle; at 80 and 200 it is whole', async () => {
    expect((await head(['chains'], 60, 5)).slice(3)).toEqual([
      'base          Base               https://basescan.org',
      'optimism      OP Mainnet         https://optim….etherscan.io',
    ]);
    for (const columns of [80, 200]) {
      expect((await head(['chains'], columns, 5)).slice(4)).toEqual(['optimism      OP Mainnet         https://optimistic.etherscan.io']);
    }
  });
  it('tokens at 80 columns keep the whole contract and drop the link; at 120 the link is cut in the middle', async () => {
    expect(await head(['tokens', 'ethereum', '--take', '3', '-q'], 80)).toEqual([
      'symbol  name        contract',
      'ETH     Ether       0x0000000000000000000000000000000000000000',
      'USDC    USD Coin    0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    ]);
    expect(await head(['tokens', 'ethereum', '--take', '3', '-q'], 120)).toEqual([
      'symbol  name        contract                                    url',
      'ETH     Ether       0x0000000000000000000000000000000000000000  https://etherscan.io',
      'USDC    USD Coin    0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48  https://etherscan.io/token/0…b36c1d19d4a2e9eb0ce3606eb48',
    ]);
  });
  it('--fields is honoured in the table: those columns, in that order, none dropped', async () => {
    expect(await head(['tokens', 'ethereum', '--take', '3', '-q', '--fields', 'url,symbol'], 40)).toEqual([
      'url                               symbol',
      'https://etherscan.io              ETH',
      'https://ethersca…e9eb0ce3606eb48  USDC',
    ]);
    expect(await head(['bridges', '--fields', 'key,allTimeSwapsCount'], 80)).toEqual([
      'key             swaps',
      'stargate   22,673,543',
      'wormhole   11,364,850',
    ]);
  });
});

/** What a terminal shows of a card: its text, without the hyperlinks' sequences (test/cli/swap-card.test.ts checks those). */
const onScreen = (text: string) => text.replace(/\u001b\]8;[^\u001b]*\u001b\\/g, '');

describe('swap card', () => {
  it('on 80 columns the legs stack, hashes whole; on 200 they stand side by side', async () => {
    const id = (await head(['swaps', ...MINUTE], 80, 2))[1]!.split(' ').at(-1)!;
    const narrow = await runSwapx(['swap', id], { env, stdout: new Capture({ isTTY: true, columns: 80 }) });
    const lines = onScreen(narrow.stdout).split('\n');
    expect(lines.slice(0, 4)).toEqual([`Swap ${id}  Stargate (stargate)`, '', 'source (deposit)', 'chain        ethereum']);
    expect(lines).toContain('destination (withdrawal)');
    expect(lines.find((l) => l.startsWith('transaction'))).toBe('transaction  0x1f33ab1812364c10022ec377833f7dc226d556385655c360cb1b7c3b525d2b55');
    const wide = await runSwapx(['swap', id], { env, stdout: new Capture({ isTTY: true, columns: 200 }) });
    expect(wide.stdout.split('\n')[2]).toMatch(/^\s+source \(deposit\)\s+destination \(withdrawal\)$/);
  });

  it('balance changes fit the terminal: account and amount whole, the direction dropped first, then one account a heading', async () => {
    const id = (await head(['swaps', ...MINUTE], 80, 2))[1]!.split(' ').at(-1)!;
    // Every line of the card fits, at 60 columns too (a hash too long for its line goes on below it, whole).
    const balances = async (columns: number) => {
      const r = await runSwapx(['swap', id], { env, stdout: new Capture({ isTTY: true, columns }) });
      expect(r.code).toBe(0);
      const lines = onScreen(r.stdout).trimEnd().split('\n');
      const table = lines.slice(lines.indexOf('Balance changes') + 1);
      for (const line of lines) expect([...line].length).toBeLessThanOrEqual(columns);
      return table;
    };
    expect(await balances(200)).toEqual([
      'account                                     chain     token  direction         amount',
      '0x462f0d5d9c706c28bd3a7e7fd27de1bbf09a1a49  ethereum  USDC   out        -15978.928452',
      '0xfa2732857f121bdcd362aa77d537614084dc89a0  ethereum  USDC   in          15978.928452',
      '0x2055287a4b583919707cdaa2179394ef4dad3da1  polygon   USDC   out        -15956.427849',
      '0x61cf3687738a09487d3eea58908af600a56c01d6  polygon   USDC   in          15956.427849',
    ]);
    // On 80 the amount's sign still says which way: the direction goes first.
    expect(await balances(80)).toEqual([
      'account                                     chain     token         amount',
      '0x462f0d5d9c706c28bd3a7e7fd27de1bbf09a1a49  ethereum  USDC   -15978.928452',
      '0xfa2732857f121bdcd362aa77d537614084dc89a0  ethereum  USDC    15978.928452',
      '0x2055287a4b583919707cdaa2179394ef4dad3da1  polygon   USDC   -15956.427849',
      '0x61cf3687738a09487d3eea58908af600a56c01d6  polygon   USDC    15956.427849',
    ]);
    // Issue 22.5: on 60 a change still says its chain and token (it is keyed by account, chain and token): each
    // account heads the lines of its changes.
    expect(await balances(60)).toEqual([
      '  chain     token  direction         amount',
      '0x462f0d5d9c706c28bd3a7e7fd27de1bbf09a1a49',
      '  ethereum  USDC   out        -15978.928452',
      '0xfa2732857f121bdcd362aa77d537614084dc89a0',
      '  ethereum  USDC   in          15978.928452',
      '0x2055287a4b583919707cdaa2179394ef4dad3da1',
      '  polygon   USDC   out        -15956.427849',
      '0x61cf3687738a09487d3eea58908af600a56c01d6',
      '  polygon   USDC   in          15956.427849',
    ]);
  });
});

describe('swap card with --fields', () => {
  it('shows exactly those fields, in that order', async () => {
    const id = (await head(['swaps', ...MINUTE], 80, 2))[1]!.split(' ').at(-1)!;
    const r = await runSwapx(['swap', id, '-f', 'table', '--fields', 'bridge,id,protocolKey'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`bridge       Stargate\nid           ${id}\nprotocolKey  stargate\n`);
  });
});
