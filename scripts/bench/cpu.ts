// Part 2: CPU per swap of swapx against the loop a user would write instead (curl | jq per window), same data.
import fs from 'node:fs';
import path from 'node:path';
import { LIST_SWAP_FIELDS } from '../../src/api/types.js';
import type { BenchContext, PartOutcome } from './context.js';
import { check, commandExists, countLines, runTimed, type Timed } from './proc.js';
import { fixed, grouped, kibToMB, table, verdict } from './report.js';

const SWAPS_PER_HOUR = 20_000;
const FROM = '2026-10-01T00:00:00Z';
const TO = '2026-10-01T06:00:00Z';
const CONCURRENCY = 4;

type Tool = 'swapx' | 'curl+jq';

interface Format {
  name: 'jsonl' | 'csv';
  label: string;
  /** swapx's format flag. */
  flag: string;
  /** jq's arguments for the same output. */
  jq: readonly string[];
  /** The goal: swapx's CPU per swap at most this times the loop's. */
  maxRatio: number;
  /** The CSV header the loop prints first. */
  header?: string;
}

interface MeasuredRun {
  tool: Tool;
  format: Format['name'];
  rows: number;
  cpuS: number;
  userS: number;
  sysS: number;
  peakRssMB: number;
  wallS: number;
  sandboxCpuS: number;
  /** Set once every run is in: the same swaps for both tools. */
  swapsPerCpuS?: number;
}

interface SkippedRun {
  tool: Tool;
  format: Format['name'];
  skipped: string;
}

type CpuRun = MeasuredRun | SkippedRun;

interface FormatFigure {
  format: Format['name'];
  swapxSwapsPerCpuS: number;
  curlJqSwapsPerCpuS?: number;
  ratio?: number;
  maxRatio?: number;
  skipped?: string;
  pass: boolean | null;
}

interface CpuResult {
  range: { from: string; to: string };
  windows: number;
  swaps: number;
  swapsPerHour: number;
  concurrency: number;
  runs: CpuRun[];
  formats: FormatFigure[];
}

const FORMATS: readonly Format[] = [
  { name: 'jsonl', label: 'JSON Lines', flag: '--jsonl', jq: ['-c', '.[]'], maxRatio: 0.35 },
  {
    name: 'csv',
    label: 'CSV',
    maxRatio: 0.45,
    flag: '--csv',
    // Every field in the spec's order; arrays and objects as compact JSON, null as an empty cell (as swapx writes them).
    jq: [
      '-r',
      `def cell: if type == "array" or type == "object" then tojson else . end; .[] | [${LIST_SWAP_FIELDS.map((f) => `.${f}`).join(', ')}] | map(cell) | @csv`,
    ],
    header: LIST_SWAP_FIELDS.join(','),
  },
];

// $1 base URL, $2 windows file ("from to" per line), $3 output, $4… jq arguments; a CSV header (if any) in $HEADER.
const LOOP = `
{
  if [ -n "$HEADER" ]; then printf '%s\\n' "$HEADER"; fi
  while read -r from to; do
    curl -s -u demo:demo "$1/v1/external/swaps?From=$from&To=$to" | jq "\${@:4}"
  done < "$2"
} > "$3"`;

function missingTools(): string | undefined {
  const missing = ['curl', 'jq', 'bash'].filter((name) => !commandExists(name));
  return missing.length ? `${missing.join(', ')} not found on PATH` : undefined;
}

/** The measured run of `tool` in `format`; throws if the bench did not make one. */
function measured(runs: readonly CpuRun[], tool: Tool, format: Format['name']): MeasuredRun {
  const run = runs.find((r) => r.tool === tool && r.format === format);
  if (!run || 'skipped' in run) throw new Error(`cpu: no measured ${tool} run for ${format}`);
  return run;
}

export async function cpuPart(ctx: BenchContext): Promise<PartOutcome<CpuResult>> {
  const windows = ctx.windowsBetween(FROM, TO);
  const windowsFile = path.join(ctx.tmp, 'cpu-windows.txt');
  fs.writeFileSync(windowsFile, windows.map((w) => `${w.from} ${w.to}\n`).join(''));
  const skipped = missingTools();
  const sandbox = await ctx.startSandbox({ latencyMs: 0, swapsPerHour: SWAPS_PER_HOUR });
  const runs: CpuRun[] = [];
  try {
    // JIT-warms the sandbox; its swap cache (50,000) is smaller than the range, so every run below finds it equally cold.
    check(await ctx.swapx(sandbox.url, ['swaps', '--from', FROM, '--to', windows[0]?.to ?? TO, '--jsonl', '-q']), 'sandbox warm-up');
    const timed = async (tool: Tool, format: Format, run: (out: string) => Promise<Timed>): Promise<MeasuredRun> => {
      ctx.log(`cpu: ${tool} ${format.label}`);
      const out = path.join(ctx.tmp, `cpu-${tool}.${format.name}`);
      const sandboxBefore = sandbox.cpuSeconds();
      const result = await run(out);
      const sandboxCpuS = sandbox.cpuSeconds() - sandboxBefore;
      const rows = countLines(out) - (format.name === 'csv' ? 1 : 0);
      fs.rmSync(out, { force: true });
      const entry: MeasuredRun = {
        tool,
        format: format.name,
        rows,
        cpuS: result.cpu,
        userS: result.user,
        sysS: result.sys,
        peakRssMB: kibToMB(result.rssKiB),
        wallS: result.wallMs / 1000,
        sandboxCpuS,
      };
      runs.push(entry);
      return entry;
    };
    for (const format of FORMATS) {
      const swapx = await timed('swapx', format, async (out) =>
        check(
          await ctx.swapx(sandbox.url, ['swaps', '--from', FROM, '--to', TO, format.flag, '-o', out, '--force', '--concurrency', String(CONCURRENCY), '-q']),
          `swapx ${format.label}`,
        ),
      );
      if (swapx.rows === 0) throw new Error(`swapx exported no swaps from ${FROM} to ${TO}`);
      if (skipped) {
        runs.push({ tool: 'curl+jq', format: format.name, skipped });
        continue;
      }
      await timed('curl+jq', format, async (out) =>
        check(
          await runTimed('bash', ['-c', LOOP, 'bash', sandbox.url, windowsFile, out, ...format.jq], {
            env: { ...ctx.env(sandbox.url), HEADER: format.header ?? '' },
            cwd: ctx.tmp,
            timeFile: ctx.timeFile,
          }),
          `curl + jq ${format.label}`,
        ),
      );
    }
  } finally {
    await sandbox.stop();
  }

  // The same data for every row: the swaps in the range, as swapx exports them once each. The loop writes
  // a few more rows: swaps exactly on a window edge come back from both windows.
  const swaps = measured(runs, 'swapx', 'jsonl').rows;
  const formats = FORMATS.map((format): FormatFigure => {
    const swapx = measured(runs, 'swapx', format.name);
    swapx.swapsPerCpuS = swaps / swapx.cpuS;
    if (swapx.rows !== swaps) throw new Error(`swapx wrote ${swapx.rows} CSV rows but ${swaps} JSON lines`);
    const skipped = runs.find((r): r is SkippedRun => r.tool === 'curl+jq' && r.format === format.name && 'skipped' in r);
    if (skipped) return { format: format.name, swapxSwapsPerCpuS: swapx.swapsPerCpuS, skipped: skipped.skipped, pass: null };
    const loop = measured(runs, 'curl+jq', format.name);
    loop.swapsPerCpuS = swaps / loop.cpuS;
    // CPU per swap of swapx over that of the loop (same swaps for both): below 1, swapx costs less.
    const ratio = loop.swapsPerCpuS / swapx.swapsPerCpuS;
    return {
      format: format.name,
      swapxSwapsPerCpuS: swapx.swapsPerCpuS,
      curlJqSwapsPerCpuS: loop.swapsPerCpuS,
      ratio,
      maxRatio: format.maxRatio,
      pass: ratio <= format.maxRatio,
    };
  });
  const figureOf = (name: Format['name']): FormatFigure | undefined => formats.find((f) => f.format === name);
  const formatOf = (name: Format['name']): Format | undefined => FORMATS.find((f) => f.name === name);
  const label = (name: Format['name']): string => formatOf(name)?.label ?? name;

  const text = table(
    `2. CPU cost: ${grouped(swaps)} swaps (${FROM} → ${TO}, ${windows.length} windows), sandbox ${grouped(SWAPS_PER_HOUR)} swaps/hour, no latency`,
    [
      ['pipeline', 'l'],
      ['format', 'l'],
      ['rows', 'r'],
      ['CPU s', 'r'],
      ['user s', 'r'],
      ['sys s', 'r'],
      ['swaps/CPU-s', 'r'],
      ['µs/swap', 'r'],
      ['peak RSS MB', 'r'],
      ['wall s', 'r'],
      ['sandbox CPU s', 'r'],
      ['CPU ÷ curl+jq', 'r'],
      ['target', 'l'],
    ],
    runs.map((r) => {
      if ('skipped' in r) return ['curl | jq per window (bash loop)', label(r.format), ...Array<string>(10).fill('-'), `skipped: ${r.skipped}`];
      const f = figureOf(r.format);
      const swapsPerCpuS = r.swapsPerCpuS ?? Number.NaN;
      const isSwapx = r.tool === 'swapx';
      return [
        isSwapx ? `swapx (-o file, concurrency ${CONCURRENCY})` : 'curl | jq per window (bash loop)',
        label(r.format),
        grouped(r.rows),
        fixed(r.cpuS),
        fixed(r.userS),
        fixed(r.sysS),
        grouped(swapsPerCpuS),
        fixed(1e6 / swapsPerCpuS, 1),
        fixed(r.peakRssMB, 0),
        fixed(r.wallS, 1),
        fixed(r.sandboxCpuS, 1),
        isSwapx && f?.ratio !== undefined ? `${fixed(f.ratio)}×` : '',
        isSwapx && f && f.pass !== null ? `≤ ${f.maxRatio}× ${verdict(f.pass)}` : '',
      ];
    }),
    [
      `CPU s = user + sys of the swapx process, or of bash + every curl and jq it ran (GNU time counts waited-for children).`,
      `swaps/CPU-s divides the same ${grouped(swaps)} swaps for both; the loop writes a few more rows (swaps on a window edge come back from both windows).`,
      `The sandbox runs in its own process; its cache is smaller than the range, so it generates every swap again in every run (sandbox CPU s):`,
      `that bounds wall time, not the CPU measured. jq's CSV: every field in the spec's order, arrays/objects via tojson.`,
      ...formats.map((f) =>
        f.skipped
          ? `Target (${label(f.format)}): CPU per swap at most ${formatOf(f.format)?.maxRatio}× that of curl + jq: skipped (${f.skipped})`
          : `Target (${label(f.format)}): CPU per swap at most ${f.maxRatio}× that of curl + jq: ${grouped(f.swapxSwapsPerCpuS)} vs ${grouped(f.curlJqSwapsPerCpuS ?? Number.NaN)} swaps/CPU-s, ${fixed(f.ratio ?? Number.NaN)}× → ${verdict(f.pass)}`,
      ),
    ],
  );
  return {
    text,
    result: { range: { from: FROM, to: TO }, windows: windows.length, swaps, swapsPerHour: SWAPS_PER_HOUR, concurrency: CONCURRENCY, runs, formats },
  };
}
