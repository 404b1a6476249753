/**
 * Progress on stderr while an export runs — an ora spinner on a terminal, a
 * plain line every 10 s otherwise — and the summary at the end.
 */
import type { Ora } from 'ora';
import type { OutStream } from '../cli/context.js';
import { formatElapsed } from '../util/time.js';

export interface ExportCounters {
  windowsTotal: number;
  windowsDone: number;
  swaps: number;
  dropped: number;
  retries: number;
  splits: number;
}

export function newCounters(windowsTotal: number): ExportCounters {
  return { windowsTotal, windowsDone: 0, swaps: 0, dropped: 0, retries: 0, splits: 0 };
}

const num = (n: number) => n.toLocaleString('en-US');

export class Progress {
  private spinner: Ora | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly started = performance.now();
  /** what this run did, for the rate and ETA (a resume starts with windows done) */
  private readonly baseWindows: number;
  private readonly baseSwaps: number;

  constructor(
    private readonly stream: OutStream,
    private readonly counters: ExportCounters,
    private readonly options: { quiet: boolean; color: boolean; intervalMs?: number },
  ) {
    this.baseWindows = counters.windowsDone;
    this.baseSwaps = counters.swaps;
  }

  async start(): Promise<void> {
    if (this.options.quiet) return;
    // A terminal of zero columns (a pty nobody sized) would make ora clear lines forever.
    if (this.stream.isTTY && ((this.stream as NodeJS.WriteStream).columns ?? 0) > 0) {
      // ora loads only for people watching a terminal.
      const { default: ora } = await import('ora');
      // color false, not 'white': any colour name is an escape sequence, which NO_COLOR / --no-color forbid.
      const color = this.options.color ? 'cyan' : false;
      this.spinner = ora({ text: this.line(), stream: this.stream as NodeJS.WriteStream, color, isEnabled: true, discardStdin: false }).start();
      this.timer = setInterval(() => this.update(), 250);
    } else {
      this.timer = setInterval(() => this.stream.write(`${this.line()}\n`), this.options.intervalMs ?? 10_000);
    }
    this.timer.unref();
  }

  update(): void {
    if (this.spinner) this.spinner.text = this.line();
  }

  elapsedMs(): number {
    return performance.now() - this.started;
  }

  line(): string {
    const c = this.counters;
    const seconds = this.elapsedMs() / 1000;
    const rate = seconds > 0 ? (c.swaps - this.baseSwaps) / seconds : 0;
    const doneHere = c.windowsDone - this.baseWindows;
    const left = c.windowsTotal - c.windowsDone;
    const eta = doneHere > 0 ? formatElapsed((this.elapsedMs() / doneHere) * left) : '?';
    return `windows ${num(c.windowsDone)}/${num(c.windowsTotal)} · ${num(c.swaps)} swaps · ${num(Math.round(rate))}/s · retries ${num(c.retries)} · ETA ${left === 0 ? '0s' : eta}`;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.spinner?.stop();
    this.spinner = undefined;
  }
}

export interface SummaryFacts {
  range: string;
  filter: string;
  output: string;
}

export function summaryText(counters: ExportCounters, elapsedMs: number, facts: SummaryFacts, swapsThisRun: number): string {
  const seconds = elapsedMs / 1000;
  const rate = seconds > 0 ? Math.round(swapsThisRun / seconds) : 0;
  return [
    `Exported ${num(counters.swaps)} swaps to ${facts.output}`,
    `  range       ${facts.range}`,
    `  filter      ${facts.filter}`,
    `  windows     ${num(counters.windowsDone)}/${num(counters.windowsTotal)}${counters.splits ? ` (${counters.splits} split after timeouts)` : ''}`,
    `  duplicates  ${num(counters.dropped)} dropped (window edges)`,
    `  retries     ${num(counters.retries)}`,
    `  elapsed     ${formatElapsed(elapsedMs)} (${num(rate)} swaps/s)`,
  ].join('\n');
}
