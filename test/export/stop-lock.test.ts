import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createClient, type SwapxClient } from '../../src/api/client.js';
import { LIST_SWAP_FIELDS } from '../../src/api/types.js';
import { runExport, type RunEvent } from '../../src/export/run-export.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { planExport } from '../../src/export/plan.js';
import { tempDir } from '../helpers/cli.js';
import { DATA, FROM, TO } from '../helpers/swaps-fixture.js';

let sandbox: RunningSandbox;
let client: SwapxClient;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, ...DATA });
  client = createClient({ baseUrl: sandbox.url, credentials: { kind: 'basic', clientId: 'demo', apiKey: 'demo' } });
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

it("a second signal while the first one's clean-up releases the lock still releases it at once", async () => {
  const file = path.join(tempDir('swapx-review-'), 'out.jsonl');
  const lockFile = `${file}.partial.lock`;
  const signal = new AbortController();
  const stop = new AbortController();
  let lockThere: boolean | undefined;
  const readFile = fsp.readFile;
  // The second signal arrives as the engine's finally reads the lock to release it (process.exit follows at once).
  const spy = vi.spyOn(fsp, 'readFile').mockImplementation((async (name: unknown, ...rest: unknown[]) => {
    if (name === lockFile && signal.signal.aborted && !stop.signal.aborted) {
      stop.abort();
      lockThere = fs.existsSync(lockFile);
    }
    return (readFile as (...a: unknown[]) => unknown)(name, ...rest);
  }) as typeof fsp.readFile);
  try {
    const output = { file, format: 'jsonl' as const, gzip: false, fields: LIST_SWAP_FIELDS, excelSafe: false };
    const plan = planExport({ from: Date.parse(FROM), to: Date.parse(TO), output, concurrency: 1, now: Date.parse(TO) });
    const onEvent = (event: RunEvent) => {
      if (event.type === 'window' && event.windowsDone === 2) signal.abort();
    };
    await runExport(plan, { client, baseUrl: sandbox.url, stdout: new PassThrough(), signal: signal.signal, stop: stop.signal }, onEvent).catch(() => {});
  } finally {
    spy.mockRestore();
  }
  expect(lockThere).toBe(false); // is true: the process exits with FILE.partial.lock left behind
});
