/** Spawning the built CLI as a user would, with a throw-away config dir. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const BIN = path.resolve(import.meta.dirname, '../../bin/swapx.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

const made: string[] = [];

/** A fresh directory under the system's temp dir, removed after the test file (test/helpers/cleanup.ts). */
export function tempDir(prefix = 'swapx-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** An environment with nothing of the caller's swapx settings in it. */
export function cliEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' };
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) env[key] = value;
  return env;
}

/** Env for a sandbox with the default demo:demo client. */
export function sandboxEnv(baseUrl: string, configDir: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return cliEnv({ SWAPX_BASE_URL: baseUrl, SWAPX_CONFIG_DIR: configDir, SWAPX_CLIENT_ID: 'demo', SWAPX_API_KEY: 'demo', ...extra });
}

export function spawnCli(args: readonly string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], { env: options.env ?? cliEnv(), cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
}

export function collect(child: ChildProcess, input?: string): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  if (input !== undefined) child.stdin!.end(input);
  else child.stdin!.end();
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Runs the real bin/swapx.js to its end: for what only a process shows (the bin's own start). */
export function runCli(args: readonly string[], options: { env?: NodeJS.ProcessEnv; input?: string; cwd?: string } = {}): Promise<CliResult> {
  return collect(spawnCli(args, options), options.input);
}
