/**
 * Progress on stderr while an export or a sync step runs — an ora spinner on a
 * terminal, a plain line every 10 s otherwise (an export's) — and an export's
 * summary at the end. It listens to the run's events and the client's
 * retries; it changes nothing.
 */
import type { ExportEvent, ExportSummary } from '../export/exporter.js';
import type { Tally } from '../export/sink.js';
import type { OutStream } from '../output/stream.js';
import { plural } from '../output/table.js';
import { formatElapsed } from '../util/time.js';
import { Spinner, spinnerAllowed } from './spinner.js';

const num = (n: number) => n.toLocaleString('en-US');

/** A size as people read it: 812 bytes, 48.2 KB, 1.3 GB (powers of 1000, as ls -h --si and S3's consoles say them). */
export function bytesInWords(bytes: number): string {
  if (bytes < 1000) return `${num(bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 999.95 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

export class Progress {
  private spinner: Spinner | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly started = performance.now();
  private latest: Tally & { windowsTotal: number };

  constructor(
    private readonly stream: OutStream,
    /** where this run starts (a resume starts with windows done), for the rate and ETA */
    private readonly base: Tally & { windowsTotal: number },
    private readonly options: {
      quiet: boolean;
      color: boolean;
      intervalMs?: number;
      retries: () => number;
      /** standard output when the data goes there (no -o): unless it is a terminal, nothing is drawn on this one */
      stdout?: OutStream;
      env?: NodeJS.ProcessEnv;
      /** a spinner on a terminal and nothing elsewhere: a run that says what it did when done (sync) needs no lines in a log */
      terminalOnly?: boolean;
    },
  ) {
    this.latest = base;
  }

  async start(): Promise<void> {
    if (this.options.quiet) return;
    const { stdout, env } = this.options;
    // Data on a stdout that is not a terminal (| jq, | head, > f) may be shown on this terminal: neither a spinner
    // nor progress lines go between its lines (gh's rule); the summary comes at the end. A log (stderr not a
    // terminal) still gets its lines.
    if (this.stream.isTTY === true && stdout && stdout.isTTY !== true) return;
    if (spinnerAllowed(this.stream, stdout, env)) {
      this.spinner = new Spinner(this.stream, () => this.line(), this.options.color);
      return this.spinner.start();
    }
    if (this.options.terminalOnly) return;
    this.timer = setInterval(() => this.stream.write(`${this.line()}\n`), this.options.intervalMs ?? 10_000);
    this.timer.unref();
  }

  /** The exporter's listener. */
  readonly onEvent = (event: ExportEvent): void => {
    this.latest = event;
    this.update();
  };

  private update(): void {
    this.spinner?.update();
  }

  elapsedMs(): number {
    return performance.now() - this.started;
  }

  line(): string {
    const c = this.latest;
    const seconds = this.elapsedMs() / 1000;
    const rate = seconds > 0 ? (c.swaps - this.base.swaps) / seconds : 0;
    const doneHere = c.windowsDone - this.base.windowsDone;
    const left = c.windowsTotal - c.windowsDone;
    const eta = doneHere > 0 ? formatElapsed((this.elapsedMs() / doneHere) * left) : '?';
    return `windows ${num(c.windowsDone)}/${num(c.windowsTotal)} · ${num(c.swaps)} swaps · ${num(Math.round(rate))}/s · retries ${num(this.options.retries())} · ETA ${left === 0 ? '0s' : eta}`;
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
  retries: number;
  /** an export to an object: what was uploaded */
  uploaded?: string;
}

export function summaryText(summary: ExportSummary, elapsedMs: number, facts: SummaryFacts): string {
  const seconds = elapsedMs / 1000;
  const rate = seconds > 0 ? Math.round(summary.swapsThisRun / seconds) : 0;
  return [
    `Exported ${plural(summary.swaps, 'swap')} to ${facts.output}`,
    `  range       ${facts.range}`,
    `  filter      ${facts.filter}`,
    `  windows     ${num(summary.windowsDone)}/${num(summary.windowsTotal)}${summary.splits ? ` (${summary.splits} split after timeouts)` : ''}`,
    `  duplicates  ${num(summary.dropped)} dropped (window edges)`,
    ...(summary.outside ? [`  outside     ${num(summary.outside)} returned outside their window, not written by it (a server fault)`] : []),
    `  retries     ${num(facts.retries)}`,
    ...(facts.uploaded ? [`  uploaded    ${facts.uploaded}`] : []),
    `  elapsed     ${formatElapsed(elapsedMs)} (${num(rate)} swaps/s)`,
  ].join('\n');
}
