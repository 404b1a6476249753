/** Running the programs a test server is made of (initdb, pg_ctl, openssl, the Ceph daemons) to their end. */
import { spawn } from 'node:child_process';
import path from 'node:path';

/**
 * Runs a program to its end, in a process group of its own: an abort kills the group, so that what it started
 * (runuser's initdb, a daemon's children) ends with it, not after. Rejects with its output (`name` failed) when it fails.
 */
export async function runProgram(
  command: string,
  args: readonly string[],
  { signal, name = path.basename(command) }: { signal?: AbortSignal; name?: string } = {},
): Promise<void> {
  signal?.throwIfAborted();
  const child = spawn(command, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const abort = () => process.kill(-child.pid!, 'SIGKILL');
  signal?.addEventListener('abort', abort, { once: true });
  try {
    let output = '';
    let errors = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (errors += text));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    signal?.throwIfAborted();
    if (code !== 0) throw new Error(`${name} failed (${code}): ${(errors || output).trim()}`);
  } finally {
    signal?.removeEventListener('abort', abort);
  }
}
