/**
 * Issue "the people, round two", 7 and 2: the swap card at 80 columns (every line fits, hashes whole, the balance
 * changes' header never cut), and each transaction linked to its chain's explorer: a terminal hyperlink (OSC 8) on a
 * terminal, the plain address elsewhere, --json unchanged; the chain list asked beside the lookup, kept a day, and
 * never failing the lookup.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSwaps, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { ONE_SWAP } from '../helpers/one-swap.js';
import { useRouteServer } from '../helpers/route-server.js';
import { Capture, runSwapx } from '../helpers/run.js';

const NOW = Date.parse('2026-11-08T00:00:00Z');
/** bitcoin → solana: a Solana signature (88 characters) and a taproot address (62) */
const TO_SOLANA = '6ae67e6c8ac4b7287a6e6328';
/** its balance changes, one line each, are one column too wide for 80: the old table cut the header to `directi…` */
const TIGHT = '6ae67ea82b2ec553094a2e3e';

let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 3, now: () => NOW });
  env = sandboxEnv(sandbox.url, path.join(tempDir(), 'cfg'));
});
afterAll(async () => {
  await sandbox.close();
});

const OSC8 = /\u001b\]8;([^;\u001b]*);([^\u001b]*)\u001b\\([^\u001b]*)\u001b\]8;;\u001b\\/g;
/** What a terminal shows: the text, without the hyperlinks' sequences. */
const onScreen = (text: string) => text.replace(OSC8, '$3');
/** Each hyperlink: its id, its address, its text. */
const linksIn = (text: string) => [...text.matchAll(OSC8)].map(([, params, url, shown]) => ({ params, url, shown }));

const terminal = (columns = 80) => ({ stdout: new Capture({ isTTY: true, columns }), stderr: new Capture({ isTTY: true, columns }) });

describe('the card at 80 columns', () => {
  it('every line fits, the Solana signature whole on two lines (it is longer than the terminal), each piece one link', async () => {
    const [swap] = findSwaps(TO_SOLANA, { seed: 3, now: NOW });
    const signature = swap!.destinationTransaction!;
    expect(signature).toHaveLength(88);
    const r = await runSwapx(['swap', TO_SOLANA], { env, ...terminal() });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(onScreen(r.stdout)).toBe(
      [
        'Swap 6ae67e6c8ac4b7287a6e6328  Chainflip (chainflip)',
        '',
        'source (deposit)',
        'chain        bitcoin',
        'account      bc1qdsp287wksnkkx2w5n30e7q6l0wrnynnp9jem24',
        'transaction  a2c21ba96c6e8b70d585708f808d905091b2b7d4b5eb7883c8fbe2148f7c7b1b',
        'token        BTC',
        'contract     —',
        'amount       0.266299',
        'USD          $17,137.22',
        'protocol     bc1pqpxv5auaut0h6dcgg3qg3namyfd59px6e72pr3e4ay3qcx9em3jsumgd39',
        '',
        'destination (withdrawal)',
        'chain        solana',
        'account      4p9ZbhBsgA5aUJx3ezj4LwKAb1KjoNyUE7VrxVomrhXL',
        'transaction  5SrVvU4gFYHJoYUPtNxEnfAR9Ei6CR66hv1yXMz8x2rFnw51BGbGzH488M42QWPg7MK',
        '             ftkj1T6xBX8DTNQwFkj7p',
        'token        SOL',
        'contract     So11111111111111111111111111111111111111112',
        'amount       117.208534',
        'USD          $16,954.09',
        'protocol     4wWmVev2NwE7onTZE4sCHSSHHaGkiFsRhRD9tmhKzxtc',
        '',
        'deposited        2026-10-31T23:49:43Z',
        'withdrawn        2026-11-01T00:00:02Z',
        'detected         2026-11-01T00:00:50Z',
        'completed        2026-11-01T00:02:21Z',
        'updated          2026-11-01T00:02:21Z',
        'protocol key     chainflip',
        'interacted with  —',
        'USD check        OK',
        'tags             —',
        '',
        'Balance changes',
        '  chain    token  direction       amount',
        'bc1qdsp287wksnkkx2w5n30e7q6l0wrnynnp9jem24',
        '  bitcoin  BTC    out          -0.266299',
        'bc1pqpxv5auaut0h6dcgg3qg3namyfd59px6e72pr3e4ay3qcx9em3jsumgd39',
        '  bitcoin  BTC    in            0.266299',
        '4wWmVev2NwE7onTZE4sCHSSHHaGkiFsRhRD9tmhKzxtc',
        '  solana   SOL    out        -117.208534',
        '4p9ZbhBsgA5aUJx3ezj4LwKAb1KjoNyUE7VrxVomrhXL',
        '  solana   SOL    in          117.208534',
        '',
      ].join('\n'),
    );
    const links = linksIn(r.stdout);
    expect(links.map((l) => [l.url, l.shown])).toEqual([
      [`https://mempool.space/tx/${swap!.sourceTransaction}`, swap!.sourceTransaction],
      [`https://solscan.io/tx/${signature}`, signature.slice(0, 67)],
      [`https://solscan.io/tx/${signature}`, signature.slice(67)],
    ]);
    // The signature's two pieces are one link to a terminal (the same id), the bitcoin one another.
    expect(links[1]!.params).toMatch(/^id=swapx-[0-9a-f]+$/);
    expect(links[2]!.params).toBe(links[1]!.params);
    expect(links[0]!.params).not.toBe(links[1]!.params);
  });
  it('the balance changes keep their header whole: the direction column goes first, never cut to directi…', async () => {
    const r = await runSwapx(['swap', TIGHT], { env, ...terminal() });
    const lines = onScreen(r.stdout).trimEnd().split('\n');
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    expect(r.stdout).not.toContain('…');
    expect(lines.slice(lines.indexOf('Balance changes') + 1)).toEqual([
      'account                                     chain     token     amount',
      '0xd1f87f07b3bbc908eb61f0c96d098fb28720ad2c  arbitrum  ETH    -0.002005',
      '0xf8687ccab5f4cfba63f1175bfe983cfea328744d  arbitrum  ETH     0.002005',
      '0x7c84f08d836962f59d709fe4df39ea9c787f478f  base      ETH    -0.002003',
      '0xe61cbd1c7c075a193ed939b7bf60d4ba2e0e1b38  base      ETH     0.002003',
    ]);
    // Wider, the direction has its column and its whole header.
    const wide = await runSwapx(['swap', TIGHT], { env, ...terminal(90) });
    expect(onScreen(wide.stdout)).toContain('\naccount                                     chain     token  direction     amount\n');
  });
});

describe('links to the explorer', () => {
  it('on a terminal, hyperlinks on the hashes and no address lines; NO_COLOR (set here) leaves them on', async () => {
    expect(env.NO_COLOR).toBe('1');
    const r = await runSwapx(['swap', TIGHT], { env, ...terminal(200) });
    expect(linksIn(r.stdout).map((l) => l.url)).toEqual([
      'https://arbiscan.io/tx/0xd51556e4e5b677029a60a2f4864d67016652ca701a0d2fa8036339bce1275ab9',
      'https://basescan.org/tx/0x7fecd89bb64c41aa12d0b5574be94da71d658133f049deb6aefa658b5e4a7c88',
    ]);
    expect(r.stdout).not.toContain('explorer');
  });
  it.each([
    ['piped with -f table', ['-f', 'table'], {}, undefined],
    ['on a dumb terminal', [], { TERM: 'dumb' }, 80],
    ['on a terminal with FORCE_HYPERLINK=0', [], { FORCE_HYPERLINK: '0' }, 80],
  ] as const)('%s: the plain address under each transaction, whole, no escape', async (_, args, extra, columns) => {
    const r = await runSwapx(['swap', TIGHT, ...args], { env: { ...env, ...extra }, ...(columns ? terminal(columns) : {}) });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('\u001b');
    const lines = r.stdout.split('\n');
    expect(lines.filter((l) => l.startsWith('explorer') || l.startsWith('transaction'))).toEqual([
      'transaction  0xd51556e4e5b677029a60a2f4864d67016652ca701a0d2fa8036339bce1275ab9',
      'explorer     https://arbiscan.io/tx/0xd51556e4e5b677029a60a2f4864d67016652ca701a0d2fa8036339bce1275ab9',
      'transaction  0x7fecd89bb64c41aa12d0b5574be94da71d658133f049deb6aefa658b5e4a7c88',
      'explorer     https://basescan.org/tx/0x7fecd89bb64c41aa12d0b5574be94da71d658133f049deb6aefa658b5e4a7c88',
    ]);
  });
  it('legs side by side: the addresses under them, one a line', async () => {
    const r = await runSwapx(['swap', TIGHT, '-f', 'table'], { env: { ...env, COLUMNS: '200' } });
    expect(r.stdout).toContain(
      '\n\nsource explorer       https://arbiscan.io/tx/0xd51556e4e5b677029a60a2f4864d67016652ca701a0d2fa8036339bce1275ab9\ndestination explorer  https://basescan.org/tx/0x7fecd89bb64c41aa12d0b5574be94da71d658133f049deb6aefa658b5e4a7c88\n\n',
    );
  });
  it('FORCE_HYPERLINK=1 links a piped table too; a card written with -o never holds an escape', async () => {
    const piped = await runSwapx(['swap', TIGHT, '-f', 'table'], { env: { ...env, FORCE_HYPERLINK: '1' } });
    expect(linksIn(piped.stdout)).toHaveLength(2);
    const file = path.join(tempDir(), 'card');
    const r = await runSwapx(['swap', TIGHT, '-f', 'table', '-o', file], { env: { ...env, FORCE_HYPERLINK: '1' }, ...terminal() });
    expect(r.code).toBe(0);
    const card = fs.readFileSync(file, 'utf8');
    expect(card).not.toContain('\u001b');
    // A file keeps every column: the legs side by side, the addresses under them.
    expect(card).toContain('\nsource explorer       https://arbiscan.io/tx/0xd51556e4e5b677029a60a2f4864d67016652ca701a0d2fa8036339bce1275ab9\n');
  });
  it('--json is the API record, unchanged, and asks for no chain list', async () => {
    const before = sandbox.stats().requests;
    const r = await runSwapx(['swap', TIGHT, '--json'], { env: { ...env, FORCE_HYPERLINK: '1' } });
    expect(JSON.parse(r.stdout)).toEqual(findSwaps(TIGHT, { seed: 3, now: NOW }));
    expect(r.stdout).not.toContain('/tx/');
    expect(sandbox.stats().requests - before).toBe(1);
  });
});

/** A hand-made API: chains as `chainsBody` says, the one swap, each request recorded. */
const seen: string[] = [];
let chainsBody: unknown = [];
let chainsStatus = 200;
/**
 * Whether to hold the lookup's answer until the chain list is asked (3 s at most): a lookup whose chain list is asked
 * beside it is answered as soon as that arrives; one asked after it would wait out the 3 s.
 */
let holdLookup = false;
/** Whether the chain list is never answered (a server that hangs on it). */
let hangChains = false;
let answeredBy: 'chains' | 'timer' | undefined;
let chainsAsked: () => void = () => {};
const api = useRouteServer({
  '/api': (req, res) => {
    const url = req.url!.replace(/^\/api/, '');
    seen.push(url);
    if (url === '/v1/external/chains') {
      chainsAsked();
      if (hangChains) return;
      res.writeHead(chainsStatus, { 'content-type': 'application/json' }).end(JSON.stringify(chainsBody));
      return;
    }
    // Answered once: by the chain list's arrival, or by the timer (a chain list asked later then finds nothing held).
    const answer = (by: 'chains' | 'timer') => {
      chainsAsked = () => {};
      answeredBy = by;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([ONE_SWAP]));
    };
    if (!holdLookup || seen.includes('/v1/external/chains')) return answer('chains');
    const timer = setTimeout(() => answer('timer'), 3000);
    chainsAsked = () => {
      clearTimeout(timer);
      setImmediate(() => answer('chains'));
    };
  },
});

describe('the chain list', () => {
  const apiEnv = (configDir: string) => sandboxEnv(`${api.base}/api`, configDir);
  const card = (configDir: string, now = NOW) => runSwapx(['swap', 'a1a1a1a1', '--retries', '0'], { env: apiEnv(configDir), now, ...terminal() });

  it('is asked beside the lookup, not after it, then kept a day', async () => {
    const dir = path.join(tempDir(), 'cfg');
    seen.length = 0;
    chainsStatus = 200;
    chainsBody = [
      { blockchainId: 'ethereum', name: 'Ethereum', explorerUrl: 'https://etherscan.io/' },
      { blockchainId: 'base', name: 'Base', explorerUrl: 'https://explorer.example/base' },
    ];
    holdLookup = true;
    answeredBy = undefined;
    const first = await card(dir);
    holdLookup = false;
    expect([first.code, first.stderr]).toEqual([0, '']);
    // The chain list was asked while the lookup waited for its answer: both were in flight together.
    expect([...seen].sort()).toEqual(['/v1/external/chains', '/v1/external/swaps/a1a1a1a1']);
    expect(answeredBy).toBe('chains');
    // An explorer's address ending in a slash, or holding a path, gets /tx/HASH without a double slash.
    expect(linksIn(first.stdout).map((l) => l.url)).toEqual(['https://etherscan.io/tx/0xa', 'https://explorer.example/base/tx/0xb']);
    expect(fs.readdirSync(path.join(dir, 'cache'))).toEqual([expect.stringMatching(/^chains-[0-9a-f]{32}\.json$/)]);

    seen.length = 0;
    expect(linksIn((await card(dir, NOW + 23 * 3_600_000)).stdout)).toHaveLength(2);
    expect(seen).toEqual(['/v1/external/swaps/a1a1a1a1']);
    seen.length = 0;
    await card(dir, NOW + 25 * 3_600_000);
    expect([...seen].sort()).toEqual(['/v1/external/chains', '/v1/external/swaps/a1a1a1a1']);
  });
  it('a chain list that fails leaves the card without links, exit 0, and is not kept', async () => {
    const dir = path.join(tempDir(), 'cfg');
    chainsStatus = 500;
    const r = await card(dir);
    chainsStatus = 200;
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(onScreen(r.stdout)).toMatch(/\ntransaction {2}0xa {15}0xb\n/);
    expect(linksIn(r.stdout)).toEqual([]);
    expect(fs.existsSync(path.join(dir, 'cache'))).toBe(false);
  });
  it('a chain list that does not come holds the card a few seconds, not a request timeout: no links, exit 0', async () => {
    hangChains = true;
    const started = performance.now();
    const r = await card(path.join(tempDir(), 'cfg'));
    hangChains = false;
    expect([r.code, r.stderr, linksIn(r.stdout)]).toEqual([0, '', []]);
    // Generous: the request's own timeout (30 s) would end it much later.
    expect(performance.now() - started).toBeLessThan(20_000);
  });
  it('an explorer that is not http(s), or not a URL, is no link', async () => {
    chainsBody = [
      { blockchainId: 'ethereum', name: 'Ethereum', explorerUrl: 'javascript:alert(1)' },
      { blockchainId: 'base', name: 'Base', explorerUrl: 'https://evil.example\u001b]8;;x\u001b\\' },
    ];
    const r = await card(path.join(tempDir(), 'cfg'));
    expect(r.code).toBe(0);
    expect(linksIn(r.stdout)).toEqual([]);
    expect(r.stdout).not.toContain('evil');
  });
});
