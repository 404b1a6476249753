/**
 * The installed bin answers `--version` before it loads the program (src/cli/start.ts): the answer must be
 * exactly what the program itself gives, and anything else must still reach the program.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';

const { version } = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };

describe('swapx --version', () => {
  it('prints the package version and exits 0, in the program as through the bin', async () => {
    expect(await runSwapx(['--version'])).toEqual({ code: 0, signal: null, stdout: `${version}\n`, stderr: '' });
    for (const flag of ['--version', '-V']) {
      expect(await runCli([flag])).toEqual({ code: 0, signal: null, stdout: `${version}\n`, stderr: '' });
    }
  });

  it('leaves any other argument list to the program', async () => {
    // Not the bin's shortcut (two arguments): the program parses them and gives the same answer.
    expect(await runCli(['-q', '--version'])).toEqual({ code: 0, signal: null, stdout: `${version}\n`, stderr: '' });
    expect(await runCli(['--nope'])).toEqual({ code: 2, signal: null, stdout: '', stderr: "swapx: unknown option '--nope'\n" });
  });
});
