/**
 * Issue "the people, round two", 7: the swap card at 80 columns (every line fits, hashes whole, the balance changes'
 * header never cut).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSwaps, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
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

const terminal = (columns = 80) => ({ stdout: new Capture({ isTTY: true, columns }), stderr: new Capture({ isTTY: true, columns }) });

describe('the card at 80 columns', () => {
  it('every line fits, the Solana signature whole on two lines (it is longer than the terminal)', async () => {
    const [swap] = findSwaps(TO_SOLANA, { seed: 3, now: NOW });
    const signature = swap!.destinationTransaction!;
    expect(signature).toHaveLength(88);
    const r = await runSwapx(['swap', TO_SOLANA], { env, ...terminal() });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(
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
  });
  it('the balance changes keep their header whole: the direction column goes first, never cut to directi…', async () => {
    const r = await runSwapx(['swap', TIGHT], { env, ...terminal() });
    const lines = r.stdout.trimEnd().split('\n');
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
    expect(wide.stdout).toContain('\naccount                                     chain     token  direction     amount\n');
  });
});
