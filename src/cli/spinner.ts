/**
 * A spinner on stderr, drawn as gh draws its progress indicator: only when a person watches both streams (stdout
 * and stderr terminals), or when the data goes elsewhere (-o FILE, a sync's --out). Data on a stdout that is not a
 * terminal (| head, > file) may still reach this terminal: a spinner there could sit in front of its first line.
 */
import type { Ora } from 'ora';
import type { OutStream } from '../output/stream.js';

/** A terminal that can redraw a line: not a dumb one, nor one of zero columns (a pty nobody sized; ora would clear lines forever). */
export function redrawable(stream: OutStream, env: NodeJS.ProcessEnv = {}): boolean {
  return stream.isTTY === true && (stream.columns ?? 0) > 0 && env.TERM !== 'dumb';
}

/** `stdout`: standard output when the data goes there; undefined when it goes to a file or a mirror. */
export function spinnerAllowed(stderr: OutStream, stdout: OutStream | undefined, env: NodeJS.ProcessEnv = {}): boolean {
  return redrawable(stderr, env) && (stdout === undefined || stdout.isTTY === true);
}

/** An ora spinner whose text is read again four times a second (elapsed times move without events). */
export class Spinner {
  private ora: Ora | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** stop() came while start() was loading ora: it must draw nothing after */
  private stopped = false;

  constructor(
    private readonly stream: OutStream,
    private readonly text: () => string,
    private readonly color: boolean,
  ) {}

  async start(): Promise<void> {
    // ora loads only for people watching a terminal. It clears its line before any write to its stream, stdout or
    // stderr (it hooks them), so data shown on this terminal never follows a spinner frame.
    const { default: ora } = await import('ora');
    if (this.stopped) return;
    // color false, not 'white': any colour name is an escape sequence, which NO_COLOR / --no-color forbid.
    const color = this.color ? 'cyan' : false;
    this.ora = ora({ text: this.text(), stream: this.stream as NodeJS.WriteStream, color, isEnabled: true, discardStdin: false }).start();
    this.timer = setInterval(() => this.update(), 250);
    this.timer.unref();
  }

  update(): void {
    if (this.ora) this.ora.text = this.text();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.ora?.stop();
    this.ora = undefined;
  }
}
