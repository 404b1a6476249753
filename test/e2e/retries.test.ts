/** Retries seen from outside: injected 503s and 429s are ridden through, one --verbose line per attempt. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';

let clean: RunningSandbox;
let unavailable: RunningSandbox;
let limited: RunningSandbox;
const cfg = path.join(tempDir(), 'cfg');

beforeAll(async () => {
  clean = await startSandbox({ port: 0, seed: 3 });
  unavailable = await startSandbox({ port: 0, seed: 3, faultRate: 0.6, faultKinds: ['503'] });
  limited = await startSandbox({ port: 0, seed: 3, faultRate: 0.6, faultKinds: ['429'], retryAfterSeconds: 1 });
});
afterAll(async () => {
  await Promise.all([clean.close(), unavailable.close(), limited.close()]);
});

async function expectRideThrough(sandbox: RunningSandbox, status: string, wait: RegExp) {
  const expected = (await runSwapx(['chains', '--json'], { env: sandboxEnv(clean.url, cfg) })).stdout;
  let sawRetry = false;
  for (let i = 0; i < 4 && !sawRetry; i += 1) {
    const r = await runSwapx(['chains', '--json', '-v', '--retries', '10'], { env: sandboxEnv(sandbox.url, cfg) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(expected);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^GET \/v1\/external\/chains 200 \d+ms( attempt \d+\/11)?$/);
    for (const line of lines.slice(0, -1))
      expect(line).toMatch(new RegExp(`^GET /v1/external/chains ${status} \\d+ms attempt \\d+/11 retry in ${wait.source}$`));
    sawRetry = lines.length > 1;
  }
  expect(sawRetry).toBe(true);
}

describe('retries', () => {
  it('rides through injected 503s with backoff', async () => {
    await expectRideThrough(unavailable, '503', /\d+(ms|\.\ds)/);
  });
  it('waits out injected 429s for exactly Retry-After', async () => {
    await expectRideThrough(limited, '429', /1\.0s/);
  });
  it('gives up after --retries with exit 1', async () => {
    const always = await startSandbox({ port: 0, faultRate: 1, faultKinds: ['503'] });
    try {
      const r = await runSwapx(['chains', '-v', '--retries', '2'], { env: sandboxEnv(always.url, cfg) });
      expect(r.code).toBe(1);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(4);
      expect(lines[2]).toMatch(/^GET \/v1\/external\/chains 503 \d+ms attempt 3\/3$/);
      expect(lines[3]).toMatch(
        /^swapx: error: server error HTTP 503 on GET \/v1\/external\/chains: .* \(traceId 00-[0-9a-f]{32}-[0-9a-f]{16}-00, at \d{4}-\d\d-\d\dT[\d:.]+Z\)$/,
      );
    } finally {
      await always.close();
    }
  });
});
