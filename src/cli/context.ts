/**
 * What a command handler receives: streams, environment, settings, the
 * credential store and a lazily built API client. Handlers never reach for
 * process.* themselves, so tests can run them with captured streams.
 */
import { Chalk, type ChalkInstance } from 'chalk';
import { AuthError, UsageError } from '../api/errors.js';
import { createClient, type SwapxClient } from '../api/client.js';
import type { AttemptLog, HttpCoreOptions } from '../api/http.js';
import type { Credentials } from '../api/credentials.js';
import { loginHint, resolveCredentials, type ResolvedCredentials } from '../config/credentials.js';
import { allowsPlainHttp, resolveSettings, type ResolvedSettings, type SettingName } from '../config/settings.js';
import { ConfigStore } from '../config/store.js';
import type { OutStream } from '../output/stream.js';
import { formatElapsed } from '../util/time.js';

export type { OutStream };
export type InStream = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };

export interface Io {
  stdout: OutStream;
  stderr: OutStream;
  stdin: InStream;
  env: NodeJS.ProcessEnv;
  /** aborted on Ctrl-C / SIGTERM */
  signal: AbortSignal;
  /**
   * aborted on a second Ctrl-C / SIGTERM (a double Ctrl-C, coreutils `timeout` signalling the process and its group):
   * the process ends right after, so what must still happen (a lock released, the resume command printed) happens
   * synchronously in its listeners (Context.onStop)
   */
  stop?: AbortSignal;
  /** the clock, epoch ms: relative times (--last, yesterday) and the cut of a future --to read it */
  now: () => number;
}

/** Options every command accepts (CLI.md, global options). */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  timeout?: string;
  retries?: string;
  verbose?: boolean;
  quiet?: boolean;
  /** false with --no-color */
  color?: boolean;
}

export interface ClientExtras {
  connections?: number;
  /** aborts this client's requests; default: the run's Ctrl-C signal */
  signal?: AbortSignal;
  requestsPerSecond?: number;
  onAttempt?: (log: AttemptLog) => void;
}

function colorEnabled(stream: OutStream, env: NodeJS.ProcessEnv, flag: boolean | undefined): boolean {
  if (flag === false) return false;
  // NO_COLOR: any non-empty value turns colour off (chalk does not read it).
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  // FORCE_COLOR as chalk and supports-color read it: 0 or false turns colour off, any other value on.
  if (env.FORCE_COLOR === '0' || env.FORCE_COLOR === 'false') return false;
  if (env.FORCE_COLOR !== undefined) return true;
  // A terminal that says it is dumb cannot show escapes.
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

/** Profile names are keys in the store and words in printed commands: keep them plain. */
function checkProfileName(name: string, from: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) {
    throw new UsageError(`${from} must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit, not '${name}'`);
  }
  return name;
}

export class Context {
  readonly profile: string;
  /** how the profile was named; undefined for the default one */
  readonly profileFrom: '--profile' | 'SWAPX_PROFILE' | undefined;
  readonly store: ConfigStore;
  /** colours for stdout and stderr, each off unless that stream may have them */
  readonly out: ChalkInstance;
  readonly err: ChalkInstance;
  private resolvedSettings: ResolvedSettings | undefined;
  private profileChecked = false;
  private timeoutFlagTaken = false;
  private readonly clients: SwapxClient[] = [];
  private readonly stopHooks = new Set<() => void>();

  constructor(
    readonly io: Io,
    readonly globals: GlobalOptions,
  ) {
    this.profileFrom = globals.profile !== undefined ? '--profile' : io.env.SWAPX_PROFILE ? 'SWAPX_PROFILE' : undefined;
    this.profile = this.profileFrom === undefined ? 'default' : checkProfileName((globals.profile ?? io.env.SWAPX_PROFILE)!, this.profileFrom);
    this.store = new ConfigStore(io.env, (message) => this.warn(message));
    this.out = new Chalk({ level: colorEnabled(io.stdout, io.env, globals.color) ? 1 : 0 });
    this.err = new Chalk({ level: colorEnabled(io.stderr, io.env, globals.color) ? 1 : 0 });
  }

  now(): number {
    return this.io.now();
  }

  get quiet(): boolean {
    return this.globals.quiet === true;
  }

  /**
   * Settings after flag > environment > profile > default; checked on first use. `newProfile`: the command makes the
   * profile it names (auth login), which need not exist yet.
   */
  settings(options: { newProfile?: boolean } = {}): ResolvedSettings {
    if (!this.resolvedSettings) {
      if (!options.newProfile) this.requireProfile();
      const flags: Partial<Record<SettingName, string>> = {
        'base-url': this.globals.baseUrl,
        timeout: this.timeoutFlagTaken ? undefined : this.globals.timeout,
        retries: this.globals.retries,
      };
      this.resolvedSettings = resolveSettings({ flags, env: this.io.env, profile: this.store.settings(this.profile) });
    }
    return this.resolvedSettings;
  }

  /**
   * --timeout for a command that gives it its own meaning (CLI.md: `swap <id> --wait [--timeout <duration>]`, the
   * wait's deadline): each request then keeps the timeout of the profile or the default. Before settings() is read.
   */
  takeTimeoutFlag(): string | undefined {
    if (this.resolvedSettings) throw new Error('takeTimeoutFlag() comes before settings()');
    this.timeoutFlagTaken = true;
    return this.globals.timeout;
  }

  /**
   * A profile named (--profile, SWAPX_PROFILE) must exist, whatever credentials the environment holds, as the AWS
   * CLI's must: a typo is said, not answered with other credentials. The default one may be empty.
   */
  private requireProfile(): void {
    if (this.profileChecked || this.profileFrom === undefined || this.profile === 'default') return;
    const known = this.store.profileNames();
    if (!known.includes(this.profile)) {
      throw new UsageError(
        `${this.profileFrom}: unknown profile '${this.profile}' (${known.length ? `known: ${known.join(', ')}` : 'none is stored yet'}); create it with 'swapx auth login --profile ${this.profile}'`,
      );
    }
    this.profileChecked = true;
  }

  /** As the AWS CLI's: a --profile's own credentials, else the environment's, else the profile's. */
  credentials(): ResolvedCredentials | undefined {
    this.requireProfile();
    return resolveCredentials(this.io.env, this.store, this.profile, this.profileFrom === '--profile');
  }

  /** An API client with the resolved settings and credentials; exit 3 with a hint when there are none. */
  client(extras: ClientExtras = {}): SwapxClient {
    this.settings();
    const resolved = this.credentials();
    if (!resolved) throw new AuthError(loginHint(this.profile, this.profileFrom === '--profile'));
    return this.clientFor(resolved.credentials, extras);
  }

  /** A client for given credentials (auth login checks them before storing). */
  clientFor(credentials: Credentials, extras: ClientExtras = {}): SwapxClient {
    const settings = this.settings();
    const verbose = this.globals.verbose ? (log: AttemptLog) => this.verboseLine(log) : undefined;
    const options: HttpCoreOptions = {
      baseUrl: settings.baseUrl.value,
      credentials,
      allowPlainHttp: allowsPlainHttp(this.io.env),
      timeoutMs: settings.timeoutMs.value,
      retries: settings.retries.value,
      connections: extras.connections,
      requestsPerSecond: extras.requestsPerSecond,
      signal: extras.signal ?? this.io.signal,
      onAttempt:
        verbose || extras.onAttempt
          ? (log) => {
              verbose?.(log);
              extras.onAttempt?.(log);
            }
          : undefined,
    };
    const client = createClient(options);
    this.clients.push(client);
    return client;
  }

  /** With -v, what prints one line per HTTP request of another client (the lake's object store); else undefined. */
  attemptLogger(): ((log: AttemptLog) => void) | undefined {
    return this.globals.verbose ? (log) => this.verboseLine(log) : undefined;
  }

  private verboseLine(log: AttemptLog): void {
    const parts = [log.method, log.path, String(log.status), `${Math.round(log.ms)}ms`];
    if (log.attempts > 1 && (log.attempt > 1 || log.retryInMs !== undefined)) parts.push(`attempt ${log.attempt}/${log.attempts}`);
    if (log.retryInMs !== undefined) parts.push(`retry in ${formatElapsed(log.retryInMs)}`);
    this.io.stderr.write(`${this.err.dim(parts.join(' '))}\n`);
  }

  /** A people-facing note on stderr; silent with --quiet. */
  info(message: string): void {
    if (!this.quiet) this.io.stderr.write(`${message}\n`);
  }

  warn(message: string): void {
    this.io.stderr.write(`${this.err.yellow('warning:')} ${message}\n`);
  }

  /**
   * `lastWords` runs (synchronously) if a second signal ends the process before the command's own clean-up has; the
   * returned function unregisters it, once that clean-up is done.
   */
  onStop(lastWords: () => void): () => void {
    const stop = this.io.stop;
    if (!stop) return () => {};
    stop.addEventListener('abort', lastWords, { once: true });
    this.stopHooks.add(lastWords);
    return () => {
      stop.removeEventListener('abort', lastWords);
      this.stopHooks.delete(lastWords);
    };
  }

  /** Once the run's last line is written: what a hook would say is said (main.ts). */
  dropStopHooks(): void {
    for (const hook of this.stopHooks) this.io.stop?.removeEventListener('abort', hook);
    this.stopHooks.clear();
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.map((client) => client.close()));
  }
}
