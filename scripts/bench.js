#!/usr/bin/env node
// `npm run bench`: start-up, pipelining, CPU per swap and memory of the bulk export, measured on the built CLI
// (bin/swapx.js → dist/) against the sandbox in its own process. Prints one table per part and writes
// bench-results.json at the repo root. Parts: scripts/bench/{startup,latency,cpu,memory,parquet}.js; name some
// (`node scripts/bench.js parquet`) to run only those.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { planWindows } from '../dist/export/plan.js';
import { MAX_WINDOW_MS } from '../dist/api/types.js';
import { formatUtc } from '../dist/util/time.js';
import { cpuPart } from './bench/cpu.js';
import { latencyPart } from './bench/latency.js';
import { memoryPart } from './bench/memory.js';
import { parquetPart } from './bench/parquet.js';
import { startupPart } from './bench/startup.js';
import { GNU_TIME, killAll, runTimed } from './bench/proc.js';
import { loadAverage, machine } from './bench/report.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsFile = path.join(root, 'bench-results.json');

if (!fs.existsSync(GNU_TIME)) {
  console.error(`bench: ${GNU_TIME} (GNU time) is needed to measure CPU time and peak RSS of child processes; install the 'time' package`);
  process.exit(1);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'swapx-bench-'));
const configDir = path.join(tmp, 'config');
fs.mkdirSync(configDir);

// The children see no SWAPX_* setting of the caller, only the sandbox's.
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('SWAPX_') && key !== 'FORCE_COLOR'));
const ctx = {
  root,
  tmp,
  node: process.execPath,
  bin: path.join(root, 'bin/swapx.js'),
  timeFile: path.join(tmp, 'time.txt'),
  env: (url) => ({ ...baseEnv, NO_COLOR: '1', SWAPX_BASE_URL: url, SWAPX_CLIENT_ID: 'demo', SWAPX_API_KEY: 'demo', SWAPX_CONFIG_DIR: configDir }),
  /** swapx with `args` against the sandbox at `url`, under GNU time; stdout discarded unless `stdoutFile`. */
  swapx: (url, args, { stdoutFile } = {}) =>
    runTimed(process.execPath, [ctx.bin, ...args], { env: ctx.env(url), cwd: tmp, stdoutFile, timeFile: ctx.timeFile }),
  /** The windows swapx plans for [from, to), as the API's time parameters. */
  windowsBetween: (from, to) => planWindows(Date.parse(from), Date.parse(to), MAX_WINDOW_MS).map((w) => ({ from: formatUtc(w.from), to: formatUtc(w.to) })),
  log: (message) => console.error(`  … ${message}`),
};

const stop = (signal) => {
  killAll();
  fs.rmSync(tmp, { recursive: true, force: true });
  process.exit(signal === 'SIGINT' ? 130 : 143);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

const started = performance.now();
const host = machine(root);
console.log(
  [
    'swapx bench',
    `  machine  ${host.cpu}, ${host.cores} cores, ${host.memoryGB} GB, ${host.os}`,
    `  node     ${host.node}`,
    `  date     ${host.date}`,
    `  commit   ${host.commit}`,
    `  load     ${host.loadAverageAtStart.join(' ')} (1/5/15-min load average at start; other work on the machine skews wall times)`,
    '',
  ].join('\n'),
);

const results = { machine: host };
try {
  const only = process.argv.slice(2);
  for (const [key, part] of [
    ['startup', startupPart],
    ['latency', latencyPart],
    ['cpu', cpuPart],
    ['memory', memoryPart],
    ['parquet', parquetPart],
  ].filter(([key]) => only.length === 0 || only.includes(key))) {
    const before = loadAverage();
    const { text, result } = await part(ctx);
    const after = loadAverage();
    console.log(`${text}  load average (1/5/15 min) ${before.join(' ')} before this part, ${after.join(' ')} after\n`);
    results[key] = { ...result, loadAverage: { before, after } };
  }
} catch (error) {
  killAll();
  console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

if (process.exitCode !== 1) {
  results.machine.loadAverageAtEnd = loadAverage();
  results.durationS = Number(((performance.now() - started) / 1000).toFixed(1));
  fs.writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  console.log(
    `load average at end ${results.machine.loadAverageAtEnd.join(' ')}; bench took ${results.durationS} s; results in ${path.relative(process.cwd(), resultsFile) || resultsFile}`,
  );
}
