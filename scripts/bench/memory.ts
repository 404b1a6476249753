// Part 3: peak RSS of a 1-day and a 10-day export: memory must grow with concurrency, never with the range.
import fs from 'node:fs';
import path from 'node:path';
import { DAY, MEMORY_SWAPS_PER_HOUR, TEN_DAYS, type BenchContext, type PartOutcome } from './context.js';
import { check, countLines } from './proc.js';
import { fixed, grouped, kibToMB, table, verdict } from './report.js';

const SWAPS_PER_HOUR = MEMORY_SWAPS_PER_HOUR;
const CONCURRENCY = 8;
interface Range {
  label: string;
  from: string;
  to: string;
  /** Not judged: what the process takes before any swap. */
  reference?: boolean;
}

interface MemoryRun extends Range {
  windows: number;
  swaps: number;
  outputMB: number;
  peakRssMB: number;
  wallS: number;
  cpuS: number;
  /** Under MAX_MB (judged runs only). */
  pass?: boolean;
}

interface MemoryResult {
  swapsPerHour: number;
  concurrency: number;
  runs: MemoryRun[];
  targets: { maxMB: number; underMax: boolean; maxGrowth: number; growth: number; growthPass: boolean };
}

const RANGES: readonly Range[] = [
  // Before the sandbox's first swap (2020-01-01): one request, no data; what the process needs before any swap.
  { label: 'empty window', from: '2019-12-31T00:00:00Z', to: '2019-12-31T00:30:00Z', reference: true },
  { label: '1 day', ...DAY },
  { label: '10 days', ...TEN_DAYS },
];
const MAX_MB = 100;
const MAX_GROWTH = 1.1;

export async function memoryPart(ctx: BenchContext): Promise<PartOutcome<MemoryResult>> {
  const runs: MemoryRun[] = [];
  for (const range of RANGES) {
    // A sandbox of its own for each run: the sandbox keeps the last ~50,000 swaps it wrote, so the 10-day run would
    // get its first day (the 1-day run's) from that cache, faster than the 1-day run got it, and peak on that burst.
    const sandbox = await ctx.startSandbox({ latencyMs: 0, swapsPerHour: SWAPS_PER_HOUR });
    try {
      ctx.log(`memory: ${range.label}`);
      const out = path.join(ctx.tmp, 'memory.jsonl');
      const result = check(
        await ctx.swapx(sandbox.url, [
          'swaps',
          '--from',
          range.from,
          '--to',
          range.to,
          '--jsonl',
          '-o',
          out,
          '--force',
          '--concurrency',
          String(CONCURRENCY),
          '-q',
        ]),
        `${range.label} export`,
      );
      const swaps = countLines(out);
      const bytes = fs.statSync(out).size;
      fs.rmSync(out, { force: true });
      runs.push({
        ...range,
        windows: ctx.windowsBetween(range.from, range.to).length,
        swaps,
        outputMB: bytes / 1e6,
        peakRssMB: kibToMB(result.rssKiB),
        wallS: result.wallMs / 1000,
        cpuS: result.cpu,
      });
    } finally {
      await sandbox.stop();
    }
  }
  const judged = runs.filter((r) => !r.reference);
  for (const run of judged) run.pass = run.peakRssMB < MAX_MB;
  const [day, tenDays] = judged;
  if (!day || !tenDays) throw new Error('memory: the 1-day or the 10-day run is missing');
  const growth = tenDays.peakRssMB / day.peakRssMB;
  const growthPass = growth <= MAX_GROWTH;
  const text = table(
    `3. Memory: peak RSS of a JSON Lines export to a file, sandbox ${grouped(SWAPS_PER_HOUR)} swaps/hour, concurrency ${CONCURRENCY}`,
    [
      ['range', 'l'],
      ['windows', 'r'],
      ['swaps', 'r'],
      ['output MB', 'r'],
      ['wall s', 'r'],
      ['CPU s', 'r'],
      ['peak RSS MB', 'r'],
      [`target < ${MAX_MB} MB`, 'l'],
    ],
    runs.map((r) => [
      r.reference ? `${r.label} (${r.from.slice(0, 10)}, reference)` : `${r.label} (${r.from.slice(0, 10)} → ${r.to.slice(0, 10)})`,
      grouped(r.windows),
      grouped(r.swaps),
      fixed(r.outputMB, 0),
      fixed(r.wallS, 1),
      fixed(r.cpuS, 1),
      fixed(r.peakRssMB, 1),
      r.reference ? '' : verdict(r.pass),
    ]),
    [
      `peak RSS = GNU time's maximum resident set size of the swapx process (MB = 10^6 bytes). The empty window (one request, no swap)`,
      `shows what the process takes before any data: node, the modules, the first request. Each run has a sandbox of its own,`,
      `started for it: no run is served from the cache of another.`,
      `Target: every run under ${MAX_MB} MB: ${verdict(judged.every((r) => r.pass))}`,
      `Target: 10 days within ${Math.round((MAX_GROWTH - 1) * 100)} % of 1 day: ${fixed(tenDays.peakRssMB, 1)} / ${fixed(day.peakRssMB, 1)} MB = ${fixed(growth, 3)}× → ${verdict(growthPass)}`,
    ],
  );
  return {
    text,
    result: {
      swapsPerHour: SWAPS_PER_HOUR,
      concurrency: CONCURRENCY,
      runs,
      targets: { maxMB: MAX_MB, underMax: judged.every((r) => r.pass), maxGrowth: MAX_GROWTH, growth, growthPass },
    },
  };
}
