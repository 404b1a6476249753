/**
 * Progress on stderr while an export or a sync step runs — an ora spinner on a
 * terminal, a plain line every 10 s otherwise (an export's) — and an export's
 * summary at the end. It listens to the run's events and the client's
 * retries; it changes nothing.
 */
import { fstatSync } from 'node:fs';
import type { Ora } from 'ora';
import type { ExportEvent, ExportSummary } from '../export/exporter.js';
import type { Tally } from '../export/sink.js';
import type { OutStream } from '../output/stream.js';
import { plural } from '../output/table.js';
import { formatElapsed } from '../util/time.js';

const num = (n: number) => n.toLocaleString('en-US');

export class Progress {
  private spinner: Ora | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly started = performance.now();
  private latest: Tally & { windowsTotal: number };
  /** stop() came while start() was loading ora: it must draw nothing after */
  private stopped = false;

  constructor(
    private readonly stream: OutStream,
    /** where this run starts (a resume starts with windows done), for the rate and ETA */
    private readonly base: Tally & { windowsTotal: number },
    private readonly options: {
      quiet: boolean;
      color: boolean;
      intervalMs?: number;
      retries: () => number;
      /** standard output when the data goes there (no -o): piped, no spinner may sit in front of its lines */
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
    const terminal = this.stream.isTTY === true;
    // Data piped from stdout to a program may land on this same terminal (| jq, | head): neither a spinner nor
    // progress lines go between its lines there; the summary comes at the end. Data redirected to a file (> f) never
    // does, and a log (stderr not a terminal) still gets its lines.
    if (terminal && this.options.stdout && this.options.stdout.isTTY !== true && mayReachTerminal(this.options.stdout)) return;
    // A terminal of zero columns (a pty nobody sized) would make ora clear lines forever; a dumb one cannot redraw.
    if (terminal && (this.stream.columns ?? 0) > 0 && this.options.env?.TERM !== 'dumb') {
      // ora loads only for people watching a terminal. It clears its line before any write to its stream, stdout or
      // stderr (it hooks them), so data shown on this terminal never follows a spinner frame.
      const { default: ora } = await import('ora');
      if (this.stopped) return;
      // color false, not 'white': any colour name is an escape sequence, which NO_COLOR / --no-color forbid.
      const color = this.options.color ? 'cyan' : false;
      this.spinner = ora({ text: this.line(), stream: this.stream as NodeJS.WriteStream, color, isEnabled: true, discardStdin: false }).start();
      this.timer = setInterval(() => this.update(), 250);
    } else if (this.options.terminalOnly) {
      return;
    } else {
      this.timer = setInterval(() => this.stream.write(`${this.line()}\n`), this.options.intervalMs ?? 10_000);
    }
    this.timer.unref();
  }

  /** The exporter's listener. */
  readonly onEvent = (event: ExportEvent): void => {
    this.latest = event;
    this.update();
  };

  private update(): void {
    if (this.spinner) this.spinner.text = this.line();
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
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.spinner?.stop();
    this.spinner = undefined;
  }
}

/** Whether what is written to `stream` may be shown on a terminal: true for a pipe or a socket, or when it cannot be told. */
function mayReachTerminal(stream: OutStream): boolean {
  const fd = (stream as { fd?: unknown }).fd;
  if (typeof fd !== 'number') return true;
  try {
    const stat = fstatSync(fd);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return true;
  }
}

export interface SummaryFacts {
  range: string;
  filter: string;
  output: string;
  retries: number;
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
    `  elapsed     ${formatElapsed(elapsedMs)} (${num(rate)} swaps/s)`,
  ].join('\n');
}
