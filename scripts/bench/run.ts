// `npm run bench`: start-up, pipelining, CPU per swap and memory of the bulk export, measured on the built CLI
// (bin/swapx.js → dist/) against the sandbox in its own process. Prints one table per part and writes
// bench-results.json at the repo root. Parts: scripts/bench/{startup,latency,cpu,memory,parquet,postgres,checkpoints,lake}.ts; name some
// (`npm run bench -- parquet`) to run only those. Built to dist/bench/ by scripts/build-bench.js.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAX_WINDOW_MS } from '../../src/api/types.js';
import { planWindows } from '../../src/windows/plan.js';
import { formatUtc } from '../../src/util/time.js';
import { checkpointsPart } from './checkpoints.js';
import type { BenchContext, PartOutcome } from './context.js';
import { cpuPart } from './cpu.js';
import { lakePart } from './lake.js';
import { latencyPart } from './latency.js';
import { memoryPart } from './memory.js';
import { parquetPart } from './parquet.js';
import { postgresPart } from './postgres.js';
import { GNU_TIME, killAll, runTimed, startSandboxProcess } from './proc.js';
import { loadAverage, machine } from './report.js';
import { startupPart } from './startup.js';

const PARTS: [string, (ctx: BenchContext) => Promise<PartOutcome<object>>][] = [
  ['startup', startupPart],
  ['latency', latencyPart],
  ['cpu', cpuPart],
  ['memory', memoryPart],
  ['parquet', parquetPart],
  ['postgres', postgresPart],
  ['checkpoints', checkpointsPart],
  ['lake', lakePart],
];

// dist/bench/bench.js → the repository root.
const root = path.resolve(import.meta.dirname, '../..');
const resultsFile = path.join(root, 'bench-results.json');

if (!fs.existsSync(GNU_TIME)) {
  console.error(`bench: ${GNU_TIME} (GNU time) is needed to measure CPU time and peak RSS of child processes; install the 'time' package`);
  process.exit(1);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'swapx-bench-'));
const configDir = path.join(tmp, 'config');
fs.mkdirSync(configDir);

// The children see no SWAPX_* setting of the caller, only the sandbox's.
const baseEnv: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('SWAPX_') && key !== 'FORCE_COLOR')),
  NO_COLOR: '1',
};
const bin = path.join(root, 'bin/swapx.js');
const timeFile = path.join(tmp, 'time.txt');
const env = (url: string): NodeJS.ProcessEnv => ({
  ...baseEnv,
  SWAPX_BASE_URL: url,
  SWAPX_CLIENT_ID: 'demo',
  SWAPX_API_KEY: 'demo',
  SWAPX_CONFIG_DIR: configDir,
});
const ctx: BenchContext = {
  root,
  tmp,
  node: process.execPath,
  bin,
  timeFile,
  env,
  swapx: (url, args, { stdoutFile } = {}) => runTimed(process.execPath, [bin, ...args], { env: env(url), cwd: tmp, stdoutFile, timeFile }),
  startSandbox: (options) => startSandboxProcess({ node: process.execPath, bin, env: baseEnv }, options),
  windowsBetween: (from, to) => planWindows(Date.parse(from), Date.parse(to), MAX_WINDOW_MS).map((w) => ({ from: formatUtc(w.from), to: formatUtc(w.to) })),
  log: (message) => console.error(`  … ${message}`),
};

const stop = (signal: NodeJS.Signals) => {
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

const parts: Record<string, object> = {};
try {
  const only = process.argv.slice(2);
  for (const [key, part] of PARTS.filter(([key]) => only.length === 0 || only.includes(key))) {
    const before = loadAverage();
    const { text, result } = await part(ctx);
    const after = loadAverage();
    console.log(`${text}  load average (1/5/15 min) ${before.join(' ')} before this part, ${after.join(' ')} after\n`);
    parts[key] = { ...result, loadAverage: { before, after } };
  }
} catch (error) {
  killAll();
  console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

if (process.exitCode !== 1) {
  const loadAverageAtEnd = loadAverage();
  const durationS = Number(((performance.now() - started) / 1000).toFixed(1));
  const results = { machine: { ...host, loadAverageAtEnd }, ...parts, durationS };
  fs.writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  console.log(
    `load average at end ${loadAverageAtEnd.join(' ')}; bench took ${durationS} s; results in ${path.relative(process.cwd(), resultsFile) || resultsFile}`,
  );
}
