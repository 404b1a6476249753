/**
 * Issue 22.8: values the sandbox never sends but the spec allows, as people read them: a bridge without a name,
 * tags with missing halves, amounts beyond a trillion, negative dollars.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { useRouteServer } from '../helpers/route-server.js';
import { Capture, runSwapx } from '../helpers/run.js';

const ID = '6ae6804ca1ceb0a431f6317d';
let swap: Record<string, unknown>;
let bridges: Record<string, unknown>[];
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  const auth = { authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}` };
  swap = ((await (await fetch(`${sandbox.url}/v1/external/swaps/${ID}`, { headers: auth })).json()) as Record<string, unknown>[])[0]!;
  bridges = (await (await fetch(`${sandbox.url}/v1/external/bridges?IncludeDelisted=true`, { headers: auth })).json()) as Record<string, unknown>[];
});
afterAll(async () => {
  await sandbox.close();
});

const json = (body: unknown) => (_req: unknown, res: import('node:http').ServerResponse) =>
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
const server = useRouteServer({
  '/odd': (req, res) => {
    if (req.url?.includes('/bridges')) {
      json([{ ...bridges[0], name: null, delisted: true, allTimeSwapsVolume: -1.2345678901e20 }])(req, res);
    } else {
      json([
        {
          ...swap,
          tags: [
            { type: 'route', value: null },
            { type: null, value: 'fast' },
            { type: null, value: null },
          ],
          depositAmount: 1e296,
          depositUsdAmount: -77_530_000,
        },
      ])(req, res);
    }
  },
});

describe('odd values, shown for people', () => {
  it('a bridge without a name is — (delisted); a negative volume beyond a trillion is -$1.23e20', async () => {
    const r = await runSwapx(['bridges', '--include-delisted'], {
      env: sandboxEnv(`${server.base}/odd`, tempDir()),
      stdout: new Capture({ isTTY: true, columns: 200 }),
    });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[1]).toMatch(/^— \(delisted\) {2}\S+ +\S+ +-\$1\.23e20 /);
  });
  it('tags leave out a missing half; the amount is 1.00e296, the dollars -$77.53M', async () => {
    const r = await runSwapx(['swap', ID], { env: sandboxEnv(`${server.base}/odd`, tempDir()), stdout: new Capture({ isTTY: true, columns: 200 }) });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.find((line) => line.startsWith('tags'))).toBe('tags             route, fast');
    expect(lines.find((line) => line.startsWith('amount'))).toMatch(/^amount {7}1e\+296 /);
    expect(lines.find((line) => line.startsWith('USD'))).toMatch(/^USD {10}-\$77\.53M {2,}/);
  });
});
