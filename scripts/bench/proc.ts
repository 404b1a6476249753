// Child processes for the bench: a command under GNU time (wall, user, sys, peak RSS) and the sandbox in its own process.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { processCpuSeconds } from '../support/process-cpu.js';

export const GNU_TIME = '/usr/bin/time';

const live = new Set<ChildProcess>();
/** Stops every child still running (the bench failed or was interrupted). */
export function killAll() {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}

function track<T extends ChildProcess>(child: T): T {
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

/** One finished run under GNU time. */
export interface Timed {
  /** The exit code, or the signal that ended the process. */
  code: number | NodeJS.Signals | null;
  wallMs: number;
  user: number;
  sys: number;
  /** user + sys, seconds. */
  cpu: number;
  rssKiB: number;
  /** The last 4,000 characters the command wrote to stderr. */
  stderr: string;
}

export interface RunOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Where GNU time writes its line (overwritten by each run). */
  timeFile: string;
  /** Where stdout goes; discarded when absent. */
  stdoutFile?: string | undefined;
  /** Where the whole of stderr goes too (a -v run's request lines), beside the tail kept in `stderr`. */
  stderrFile?: string | undefined;
}

/**
 * Runs `command args` under /usr/bin/time and waits for it. stdout goes to `stdoutFile` (or is discarded).
 * Returns wall ms (measured here), user and sys CPU seconds and peak RSS in KiB (GNU time: the
 * process and the children it waited for), the exit code and the tail of stderr.
 */
export async function runTimed(command: string, args: readonly string[], { env, cwd, stdoutFile, stderrFile, timeFile }: RunOptions): Promise<Timed> {
  const out = stdoutFile ? fs.openSync(stdoutFile, 'w') : 'ignore';
  const err = stderrFile ? fs.createWriteStream(stderrFile) : undefined;
  let stderr = '';
  const started = performance.now();
  const child = track(spawn(GNU_TIME, ['-f', '%e %U %S %M', '-o', timeFile, command, ...args], { env, cwd, stdio: ['ignore', out, 'pipe'] }));
  // stdio[2] is 'pipe': there is a stderr stream.
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (text: string) => {
    stderr = (stderr + text).slice(-4000);
    err?.write(text);
  });
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  const wallMs = performance.now() - started;
  if (typeof out === 'number') fs.closeSync(out);
  if (err) {
    // 'close' (the whole of stderr read), then the file ended.
    if (child.stderr!.readable) await once(child.stderr!, 'close');
    await new Promise<void>((resolve) => err.end(resolve));
  }
  // GNU time writes "Command exited with non-zero status N" before its line when the command fails.
  const line = fs.readFileSync(timeFile, 'utf8').trim().split('\n').pop() ?? '';
  const [, user = Number.NaN, sys = Number.NaN, rssKiB = Number.NaN] = line.split(/\s+/).map(Number);
  return { code: code ?? signal, wallMs, user, sys, cpu: user + sys, rssKiB, stderr };
}

/** Throws with the command's stderr unless it exited 0. */
export function check(result: Timed, what: string): Timed {
  if (result.code !== 0) throw new Error(`${what} failed (exit ${result.code}):\n${result.stderr.trim()}`);
  return result;
}

/** A running `swapx sandbox`. */
export interface SandboxProcess {
  url: string;
  /** CPU seconds the sandbox has used so far. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/** The sandbox's settings: its added latency, its density and, when given, a fixed clock (ISO time) and a seed. */
export interface SandboxOptions {
  latencyMs: number;
  swapsPerHour: number;
  now?: string;
  seed?: number;
}

/** What starts the sandbox: node, bin/swapx.js and the environment. */
export interface SandboxLaunch {
  node: string;
  bin: string;
  env: NodeJS.ProcessEnv;
}

/**
 * `swapx sandbox` in its own process, so its CPU never counts as the measured process's.
 * Resolves once it prints its URL (the first stdout line).
 */
export async function startSandboxProcess({ node, bin, env }: SandboxLaunch, { latencyMs, swapsPerHour, now, seed }: SandboxOptions): Promise<SandboxProcess> {
  const args = [bin, 'sandbox', '--port', '0', '--latency', String(latencyMs), '--swaps-per-hour', String(swapsPerHour)];
  if (now !== undefined) args.push('--now', now);
  if (seed !== undefined) args.push('--seed', String(seed));
  const child = track(spawn(node, args, { env, stdio: ['ignore', 'pipe', 'pipe'] }));
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    stderr = (stderr + text).slice(-4000);
  });
  child.stdout.setEncoding('utf8');
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`the sandbox printed no URL within 30 s:\n${stderr}`)), 30_000);
    child.stdout.on('data', (text: string) => {
      buffered += text;
      const newline = buffered.indexOf('\n');
      if (newline >= 0) {
        clearTimeout(timer);
        resolve(buffered.slice(0, newline).trim());
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the sandbox exited (${code}) before printing its URL:\n${stderr}`));
    });
  });
  child.stdout.resume();
  // The process printed its URL, so it was started and has a pid.
  const pid = child.pid as number;
  return {
    url,
    cpuSeconds: () => processCpuSeconds(pid),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Lines in a file (newline characters), read in chunks. */
export function countLines(file: string): number {
  const fd = fs.openSync(file, 'r');
  const buffer = Buffer.allocUnsafe(1 << 20);
  let lines = 0;
  try {
    for (let n: number; (n = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0; ) {
      const chunk = buffer.subarray(0, n);
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
    }
  } finally {
    fs.closeSync(fd);
  }
  return lines;
}

export function commandExists(name: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
    try {
      fs.accessSync(path.join(dir, name), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
