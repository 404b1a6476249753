// Part 0: what a person waits for. `swapx --version` and one `swapx swap <hash>` against a local sandbox,
// each paired run by run with `node -e 0` (the floor any Node.js program pays), as wall-time ratios.
import fs from 'node:fs';
import path from 'node:path';
import type { BenchContext, PartOutcome } from './context.js';
import { check, runTimed, type Timed } from './proc.js';
import { fixed, table, verdict } from './report.js';

const RUNS = 15;
const TARGETS = { version: 1.5, lookup: 2 } as const;
type Case = keyof typeof TARGETS;

/** One command's wall times against node -e 0's, run by run. */
interface StartupFigure {
  swapxMs: number;
  nodeMs: number;
  /** The median of the per-pair ratios swapx ÷ node -e 0. */
  ratio: number;
  ratioMin: number;
  ratioMax: number;
  target: number;
  pass: boolean;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const at = (i: number) => sorted[i] ?? Number.NaN;
  return sorted.length % 2 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
};

export async function startupPart(ctx: BenchContext): Promise<PartOutcome<Partial<Record<Case, StartupFigure>>>> {
  const sandbox = await ctx.startSandbox({ latencyMs: 0, swapsPerHour: 2000 });
  const rows: string[][] = [];
  const result: Partial<Record<Case, StartupFigure>> = {};
  try {
    const sample = path.join(ctx.tmp, 'startup-sample.jsonl');
    check(
      await ctx.swapx(sandbox.url, ['swaps', '--from', '2026-10-01T00:00:00Z', '--to', '2026-10-01T00:30:00Z', '--jsonl', '-q'], { stdoutFile: sample }),
      'sample',
    );
    const first: { sourceTransaction: string } = JSON.parse(fs.readFileSync(sample, 'utf8').split('\n')[0] ?? '');
    const hash = first.sourceTransaction;
    const baseline = () => runTimed(ctx.node, ['-e', '0'], { env: ctx.env(sandbox.url), cwd: ctx.tmp, timeFile: ctx.timeFile });
    const cases: { key: Case; label: string; run: () => Promise<Timed> }[] = [
      { key: 'version', label: 'swapx --version', run: () => ctx.swapx(sandbox.url, ['--version']) },
      { key: 'lookup', label: 'swapx swap <hash> --json (local sandbox)', run: () => ctx.swapx(sandbox.url, ['swap', hash, '--json']) },
    ];
    for (const c of cases) {
      ctx.log(`startup: ${c.label}`);
      await baseline();
      check(await c.run(), c.label);
      const ratios: number[] = [];
      const swapx: number[] = [];
      const node: number[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        const a = check(await c.run(), c.label);
        const b = await baseline();
        swapx.push(a.wallMs);
        node.push(b.wallMs);
        ratios.push(a.wallMs / b.wallMs);
      }
      const ratio = median(ratios);
      const pass = ratio <= TARGETS[c.key];
      result[c.key] = {
        swapxMs: median(swapx),
        nodeMs: median(node),
        ratio,
        ratioMin: Math.min(...ratios),
        ratioMax: Math.max(...ratios),
        target: TARGETS[c.key],
        pass,
      };
      rows.push([
        c.label,
        fixed(median(swapx), 0),
        fixed(median(node), 0),
        `${fixed(ratio)}× (${fixed(Math.min(...ratios))}–${fixed(Math.max(...ratios))})`,
        `≤ ${TARGETS[c.key]}× ${verdict(pass)}`,
      ]);
    }
  } finally {
    await sandbox.stop();
  }
  const text = table(
    `0. Start-up: wall time, ${RUNS} runs each, paired with node -e 0`,
    [
      ['command', 'l'],
      ['swapx ms', 'r'],
      ['node -e 0 ms', 'r'],
      ['ratio, median (min–max)', 'r'],
      ['target', 'l'],
    ],
    rows,
    ['Medians of the runs; the ratio is taken pair by pair (swapx, then node -e 0), so drift in the machine speed cancels out.'],
  );
  return { text, result };
}
