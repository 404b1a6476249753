/**
 * -o through a symbolic link: the file is named by its own path from then on (a resume command names it so), and
 * gzip is said by the name alone. A link whose name and whose file's name disagree on .gz is refused before any request.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';
import { DATA, envIn, interrupted, range } from '../helpers/swaps-fixture.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, ...DATA, latencyMs: 40 });
});
afterAll(() => sandbox.close());

it.each([
  ['out.csv.gz', 'data', (link: string, real: string) => `only ${link} ends in .gz: give a path whose name says whether ${real} is gzipped`],
  ['out.csv', 'data.csv.gz', (link: string, real: string) => `only ${real} ends in .gz: give a path whose name says whether ${link} is gzipped`],
])('-o %s linking to %s is refused before any request, the file unchanged', async (name, target, words) => {
  const dir = tempDir('swapx-link-gz-');
  const real = path.join(dir, target);
  fs.writeFileSync(real, 'kept');
  const link = path.join(dir, name);
  fs.symlinkSync(real, link);
  const before = sandbox.stats().requests;
  const r = await runSwapx(['swaps', ...range, '--csv', '-o', link, '--force'], { env: envIn(dir, sandbox) });
  expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `swapx: error: -o ${link} is a symbolic link to ${real}, and ${words(link, real)}\n`]);
  expect(sandbox.stats().requests).toBe(before);
  expect(fs.readFileSync(real, 'utf8')).toBe('kept');
  expect(fs.readdirSync(dir).sort()).toEqual([name, target].sort());
});

it('the resume command printed for a link whose name agrees on .gz continues the export', async () => {
  const dir = tempDir('swapx-link-gz-');
  const env = envIn(dir, sandbox);
  const real = path.join(dir, 'data.csv.gz');
  fs.writeFileSync(real, '');
  const link = path.join(dir, 'out.csv.gz');
  fs.symlinkSync(real, link);
  const saved = await interrupted(env, ['swaps', ...range, '--window', '5m', '--concurrency', '1', '-o', link, '--force'], real, 1);
  expect(saved.windowsDone).toBeGreaterThanOrEqual(1);
  const stopped = await runSwapx(['swaps', ...range, '--window', '5m', '-o', link], { env });
  const printed = /resume it with: (.*) — or add/.exec(stopped.stderr)?.[1];
  expect(printed).toBeDefined();
  const args = printed!
    .split(' ')
    .slice(1)
    .map((w) => w.replace(/^'|'$/g, ''));
  const resumed = await runSwapx(args, { env });
  expect(resumed.code).toBe(0);
  expect(resumed.stderr).toMatch(new RegExp(`^Resuming: \\d+/36 windows already done\nExported [\\d,]+ swaps to ${real}\n`));
  expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
});
