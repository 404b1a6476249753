/**
 * A sync killed but not yet reaped: its pid still exists (kill(pid, 0) succeeds) until its parent waits for it,
 * and PID 1 of many containers waits for nobody. Such a zombie runs nothing and holds nothing: the next sync takes
 * its lock over, as it takes over one whose process is gone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isAlive, isZombie } from '../../src/fs/lock.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { BIN, tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';
import { syncEnv } from '../helpers/sync.js';
import { until } from '../helpers/wait.js';

const stateOf = (pid: number) => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.charAt(stat.lastIndexOf(')') + 2);
};

let live: RunningSandbox;
beforeAll(async () => {
  live = await startSandbox({ port: 0, seed: 48, swapsPerHour: 120 });
});
afterAll(async () => {
  await live.close();
});

describe('a sync killed and never reaped', () => {
  it('holds no lock: the next sync takes it over and runs', async () => {
    const env = syncEnv(live);
    const dir = path.join(tempDir('swapx-zombie-'), 'out');
    // The shell starts the sync, prints its pid, then becomes `sleep`, a parent that never waits for its child.
    const command = `"$0" "$1" sync --out "$2" --since 40m --follow --interval 1h -q & echo $!; exec sleep 60`;
    const parent = spawn('sh', ['-c', command, process.execPath, BIN, dir], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const pid = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (d: Buffer) => resolve(d.toString()))));
      // The lock taken and the mirror's start recorded: what the cron line continues.
      await until(() => fs.existsSync(path.join(dir, '.swapx-sync.lock')) && fs.existsSync(path.join(dir, '.swapx-sync.json')));
      process.kill(pid, 'SIGKILL');
      await until(() => stateOf(pid) === 'Z');
      expect(isZombie(pid)).toBe(true);
      expect(isAlive(pid)).toBe(false);
      // It was: exit 1, "another swapx sync (pid N, since …) is running on DIR", at every run until the zombie was reaped.
      const r = await runSwapx(['sync', '--out', dir], { env });
      expect(r.stderr).toMatch(new RegExp(`^warning: took over a lock left by pid ${pid} \\(since \\S+\\), which is no longer running on ${dir}\\n`));
      expect(r.code).toBe(0);
      expect(fs.existsSync(path.join(dir, '.swapx-sync.lock'))).toBe(false);
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('isZombie: this process is not one; a pid that does not exist is not one either', () => {
    expect(isZombie(process.pid)).toBe(false);
    expect(isZombie(2 ** 30)).toBe(false);
  });
});
