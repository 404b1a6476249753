// Running the built CLI (bin/swapx.js → dist/) as a user would, with a watchdog, and reading what it said.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { syncRetries } from './compare.js';
import type { CaseRow } from './report.js';

// Both are two folders below the package root (scripts/chaos/ and, bundled, dist/chaos/).
export const BIN = path.resolve(import.meta.dirname, '../../bin/swapx.js');

/** A run of the CLI never takes longer than this; past it, it is killed and the case fails. */
const RUN_LIMIT_MS = 180_000;

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export const exists = (file: string) => fs.existsSync(file);
export const firstLine = (text: string) => text.trim().split('\n')[0] ?? '';

/**
 * The one-line errors a run printed: `swapx: …` lines, and a sync's --summary-json failure lines
 * (`{"event":"sync-failed",…}`) as the same words (`swapx: error: <message>`, or `swapx: <message>` for an interrupt).
 */
export function errorLines(stderr: string): string[] {
  const lines: string[] = [];
  for (const line of stderr.split('\n')) {
    if (line.startsWith('swapx:')) lines.push(line);
    else if (line.startsWith('{"event":"sync-failed"')) {
      try {
        const failure = JSON.parse(line) as { exitCode: number; message: string };
        lines.push(`swapx: ${failure.exitCode === 130 ? '' : 'error: '}${failure.message}`);
      } catch {
        // A line cut by SIGKILL.
      }
    }
  }
  return lines;
}

/** Starts the CLI; `done` resolves with its exit once its streams are closed. */
export function spawnSwapx(args: readonly string[], env: NodeJS.ProcessEnv): { child: ChildProcess; done: Promise<Run> } {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const watchdog = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MS);
  const done = new Promise<Run>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(watchdog);
      resolve({ code, signal, stdout, stderr, ms: performance.now() - started });
    });
  });
  return { child, done };
}

export const runSwapx = (args: readonly string[], env: NodeJS.ProcessEnv) => spawnSwapx(args, env).done;

/** A sync's failure in one line: its JSON error lines joined, else its first line. */
export const failureLine = (stderr: string) => errorLines(stderr).join(' / ') || firstLine(stderr);

/**
 * Runs a sync, then again while it exits 1 (at most three times more), as cron would: its retries and each rerun
 * noted in `row`, a run that does not end at 0 a problem.
 */
export async function runThrough(row: CaseRow, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  let run = await spawnSwapx(args, env).done;
  row.retries += syncRetries(run.stderr);
  for (let again = 0; run.code === 1 && again < 3; again += 1) {
    row.notes.push(`exit 1 (${failureLine(run.stderr)}), run again`);
    run = await spawnSwapx(args, env).done;
    row.retries += syncRetries(run.stderr);
  }
  if (run.code !== 0) row.problems.push(`exit ${run.code ?? run.signal}: ${failureLine(run.stderr)}`);
  return run;
}
