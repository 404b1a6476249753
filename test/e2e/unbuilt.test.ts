/** bin/swapx.js in a checkout that is not built: one line saying what to run, not a stack trace. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, collect, cliEnv, tempDir } from '../helpers/cli.js';
import { spawn } from 'node:child_process';

describe('bin/swapx.js without dist/', () => {
  it('says to run npm run build, exit 1', async () => {
    // A copy of the bin in a checkout of its own, with no dist/ beside it.
    const checkout = tempDir();
    fs.mkdirSync(path.join(checkout, 'bin'));
    const bin = path.join(checkout, 'bin', 'swapx.js');
    fs.copyFileSync(BIN, bin);
    fs.writeFileSync(path.join(checkout, 'package.json'), '{"type":"module"}');
    const r = await collect(spawn(process.execPath, [bin, 'chains'], { env: cliEnv(), stdio: ['pipe', 'pipe', 'pipe'] }));
    expect(r).toEqual({ code: 1, signal: null, stdout: '', stderr: "swapx: this checkout is not built: run 'npm run build' first\n" });
  });
});
