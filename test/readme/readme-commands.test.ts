/**
 * Issue 11.18: every command in the README's ```sh blocks runs as written against the sandbox,
 * in-process, in order, in a scratch folder. The rules that make "as written" testable:
 * - lines of other programs (`npm …` scripts, `duckdb`, `python3` reading an export) are not swapx: not run;
 * - a cron line runs its command (schedule and `|| alert` dropped: the command must exit 0);
 * - absolute paths (/data, /etc, /var/log) and `~` live under the scratch folder, where /data/xflow exists
 *   (the server's export folder); `$(date …)` is evaluated;
 * - the README's sandbox address is the test's sandbox; `$XFLOW_KEY` is the sandbox's demo key,
 *   `token.jwt` holds its demo token; bare `swapx auth login` gets its answers typed at a fake terminal;
 * - `swapx sandbox …` starts (on a free port) and is stopped once it prints its URL;
 * - range exports run against a sparse copy of the default sandbox to stay fast; lookups by hash or id
 *   against the default one, where the README's examples come from;
 * - the clock (swapx's and the sparse sandbox's) stands at NOW, a day after the README's example week: a
 *   `sync --since 2026-11-01` on the real clock would fetch a day more of windows every day;
 * - a line that names its own profile store (`SWAPX_CONFIG_DIR=/etc/swapx`, the cron line's) gets no credentials
 *   from the environment: it reads them from that store, which the line the README gives for it must have filled;
 * - an s3://my-lake/ --out is this run's S3 server, in a bucket of its own;
 * - `echo '…' >> FILE` and `chmod MODE FILE` (the ~/.pgpass recipe) are done in the scratch folder, and the file is
 *   read afterwards as libpq reads it, for the server the README's URL names.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { tempDir } from '../helpers/cli.js';
import { lookUpPassword } from '../../src/mirror/postgres/pgpass.js';
import { usePostgres } from '../helpers/postgres.js';
import { useBucket } from '../helpers/s3.js';
import { Capture, runSwapx } from '../helpers/run.js';

const README = fs.readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
/**
 * Lines of other programs: the project's npm scripts (listed, not run: the test is one of them); `mkdir -p`
 * (made under the scratch folder); `export` of the sandbox's address and demo client (the test gives each run
 * its own sandbox and those credentials).
 */
const OTHER_PROGRAMS = ['npm', 'mkdir', 'export', 'echo', 'chmod'];
const CRON = /^([\d*/,-]+\s+){5}(?=\S)/;
const NOW = Date.parse('2026-11-09T00:00:00Z');

/** The lines of the ```sh blocks, comments dropped. */
function readmeCommands(markdown: string): string[] {
  const lines: string[] = [];
  for (const block of markdown.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const raw of block[1]!.split('\n')) {
      const line = raw.replace(/\s+#\s.*$/, '').trim();
      if (line !== '') lines.push(line);
    }
  }
  return lines;
}

/** Shell words of a simple command: quotes, $VAR, and the operators |, ||, <, >, 2>> as words of their own. */
function words(line: string, vars: Record<string, string>): string[] {
  const out: string[] = [];
  let word: string | undefined;
  const push = (text: string) => (word = (word ?? '') + text);
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i]!;
    if (ch === ' ') {
      if (word !== undefined) out.push(word);
      word = undefined;
    } else if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      push(line.slice(i + 1, end));
      i = end;
    } else if (ch === '"') {
      const end = line.indexOf('"', i + 1);
      push(line.slice(i + 1, end).replace(/\$(\w+)/g, (_, name: string) => vars[name] ?? ''));
      i = end;
    } else if (ch === '$') {
      const name = /^\w+/.exec(line.slice(i + 1))![0];
      push(vars[name] ?? '');
      i += name.length;
    } else if (ch === '\\') {
      push(line[i + 1]!);
      i += 1;
    } else push(ch);
  }
  if (word !== undefined) out.push(word);
  return out;
}

let dense: RunningSandbox;
let sparse: RunningSandbox;
let root: string;
/** A postgres:// --out in an example is this run's server, its password in PGPASSWORD as the examples say. */
const db = usePostgres();
/** An s3://my-lake/… --out is a key prefix in this run's bucket, its keys in the environment as the AWS CLI takes them. */
const lake = useBucket();

beforeAll(async () => {
  dense = await startSandbox({ port: 0 });
  // acme: the client id of the help's example (its key is the sandbox's demo key).
  sparse = await startSandbox({ port: 0, swapsPerHour: 10, clients: ['demo:demo', 'acme:demo'], now: () => NOW });
  root = tempDir('swapx-readme-');
  fs.writeFileSync(path.join(root, 'token.jwt'), 'demo-token\n');
  // The server's folder the nightly export writes into exists there.
  fs.mkdirSync(path.join(root, 'data/xflow'), { recursive: true });
});
afterAll(async () => {
  await Promise.all([dense.close(), sparse.close()]);
});

interface Planned {
  argv: string[];
  env: NodeJS.ProcessEnv;
  input?: string;
  stdoutFile?: string;
  stderrFile?: string;
}

/** An absolute path or one under ~, in the scratch folder. */
const scratch = (w: string) => (w.startsWith('/') ? path.join(root, w) : w.startsWith('~/') ? path.join(root, 'home', w.slice(2)) : w);

function plan(line: string): Planned {
  const yesterday = new Date(NOW - 86_400_000).toISOString().slice(0, 10);
  let text = line
    .replace(CRON, '')
    .replace(/\s*\|\|\s*alert$/, '')
    .replace(/\s+&$/, '');
  text = text.replace(/\$\(date -u -d yesterday \+\\?%F\)/g, yesterday);
  const vars = { XFLOW_KEY: 'demo' };
  let tokens = words(text, vars)
    .flatMap((w) => /^(2>>|>|<)(.+)$/.exec(w)?.slice(1) ?? [w])
    .map(scratch)
    .map((w) => (/^postgres(ql)?:\/\//.test(w) ? db.url : w.replace(/^s3:\/\/my-lake\//, `s3://${lake.bucket}/`)));
  const planned: Planned = { argv: [], env: {} };
  const pipe = tokens.indexOf('|');
  if (pipe !== -1) {
    expect(tokens.slice(0, pipe).slice(0, 2)).toEqual(['printf', '%s']);
    planned.input = tokens.slice(2, pipe).join(' ');
    tokens = tokens.slice(pipe + 1);
  }
  for (const [op, key] of [
    ['<', 'input'],
    ['>', 'stdoutFile'],
    ['2>>', 'stderrFile'],
  ] as const) {
    const at = tokens.indexOf(op);
    if (at === -1) continue;
    const file = path.resolve(root, tokens[at + 1]!);
    if (key === 'input') planned.input = fs.readFileSync(file, 'utf8');
    else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      planned[key] = file;
    }
    tokens.splice(at, 2);
  }
  while (/^[A-Z_]+=/.test(tokens[0] ?? '')) {
    const [name, ...value] = tokens.shift()!.split('=');
    planned.env[name!] = scratch(value.join('='));
  }
  expect(tokens[0], line).toBe('swapx');
  // A file the line names is in the scratch folder; an object (s3://…) is in the run's bucket already.
  const file = (w: string) => !w.startsWith('s3://') && (w.endsWith('.csv') || w.endsWith('.gz') || w.endsWith('.jsonl'));
  planned.argv = tokens.slice(1).map((w) => (file(w) ? path.resolve(root, w) : w));
  return planned;
}

async function execute(line: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const p = plan(line);
  const command = p.argv.find((w) => !w.startsWith('-'));
  const sandbox = command === 'swap' ? dense : sparse;
  const env: NodeJS.ProcessEnv = {
    NO_COLOR: '1',
    SWAPX_CONFIG_DIR: path.join(root, 'config'),
    SWAPX_CLIENT_ID: 'demo',
    SWAPX_API_KEY: 'demo',
    ...db.env,
    ...lake.env,
    ...p.env,
    SWAPX_BASE_URL: sandbox.url,
  };
  // Logging in writes the profile: only the credentials the line gives count. A line naming its own store reads them there.
  if ((p.argv[0] === 'auth' && p.argv[1] === 'login') || p.env.SWAPX_CONFIG_DIR !== undefined) {
    delete env.SWAPX_CLIENT_ID;
    delete env.SWAPX_API_KEY;
  }
  const stdout = new Capture();
  const stderr = new Capture();
  let result: { code: number };
  if (command === 'sandbox') {
    const argv = p.argv.filter((w, i, all) => w !== '--port' && all[i - 1] !== '--port');
    const stop = new AbortController();
    const running = runSwapx([...argv, '--port', '0'], { env, now: NOW, stdout, stderr, signal: stop.signal });
    while (!stdout.text.includes('\n') && !stderr.text.includes('error')) await new Promise((resolve) => setTimeout(resolve, 10));
    stop.abort();
    result = await running;
  } else if (p.argv.includes('--follow')) {
    // Runs until Ctrl-C: stopped once its first step is reported.
    const stop = new AbortController();
    const running = runSwapx(p.argv, { env, now: NOW, stdout, stderr, signal: stop.signal, input: p.input });
    while (!stderr.text.includes('\n')) await new Promise((resolve) => setTimeout(resolve, 10));
    stop.abort();
    result = await running;
  } else if (p.argv.join(' ') === 'auth login') {
    // The prompts: client id (a line), then the key (hidden, ended by Enter).
    const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => true });
    const running = runSwapx(p.argv, { env, now: NOW, stdin, stdout, stderr });
    setTimeout(() => stdin.write('demo\n'), 20);
    setTimeout(() => stdin.write('demo\r'), 60);
    result = await running;
  } else {
    result = await runSwapx(p.argv, { env, now: NOW, stdout, stderr, input: p.input });
  }
  if (p.stdoutFile) fs.writeFileSync(p.stdoutFile, stdout.text);
  if (p.stderrFile) fs.appendFileSync(p.stderrFile, stderr.text);
  return { code: result.code, stdout: stdout.text, stderr: stderr.text };
}

describe('README', () => {
  const lines = readmeCommands(README);
  it('has commands to run, and only lines of known other programs are not swapx', () => {
    expect(lines.length).toBeGreaterThan(25);
    const others = lines.filter((l) => OTHER_PROGRAMS.includes(l.split(' ')[0]!));
    expect(others.map((l) => l.split(' ')[0])).toEqual(['npm', 'npm', 'export', 'echo', 'chmod', 'mkdir']);
    expect(others[2]).toBe('export SWAPX_BASE_URL=http://127.0.0.1:8787 SWAPX_CLIENT_ID=demo SWAPX_API_KEY=demo');
    // a placeholder such as 0x5f1c…e2a9 would not run
    expect(lines.filter((l) => l.includes('…'))).toEqual([]);
  });
  it('runs every command as written, in order, with exit 0', { timeout: 120_000 }, async () => {
    const cwd = process.cwd();
    process.chdir(root);
    try {
      for (const line of lines) {
        const [program, ...rest] = line.split(' ');
        if (program === 'mkdir') {
          expect(rest[0]).toBe('-p');
          for (const dir of rest.slice(1))
            fs.mkdirSync(dir.startsWith('~/') ? path.join(root, 'home', dir.slice(2)) : path.join(root, dir), { recursive: true });
        }
        if (program === 'echo') {
          const [, text, file] = /^'([^']*)' >> (\S+)$/.exec(rest.join(' '))!;
          fs.mkdirSync(path.dirname(scratch(file!)), { recursive: true });
          fs.appendFileSync(scratch(file!), `${text}\n`, { mode: 0o644 });
        }
        if (program === 'chmod') fs.chmodSync(scratch(rest[1]!), Number.parseInt(rest[0]!, 8));
        if (OTHER_PROGRAMS.includes(program!)) continue;
        const r = await execute(line);
        expect({ line, code: r.code, stderr: r.code === 0 ? '' : r.stderr }).toEqual({ line, code: 0, stderr: '' });
      }
    } finally {
      process.chdir(cwd);
    }
    expect(fs.readFileSync(path.join(root, 'home/.local/share/bash-completion/completions/swapx'), 'utf8')).toContain('complete -F _swapx swapx');
    expect(fs.readFileSync(path.join(root, 'week-slim.csv'), 'utf8').split('\n')[0]).toBe('id,bridge,sourceChain,destinationChain,withdrawnUsdAmount');
    // The cron line's store holds what its login line put there (the cron line ran on it: it had no other credentials).
    expect(JSON.parse(fs.readFileSync(path.join(root, 'etc/swapx/config.json'), 'utf8'))).toEqual({
      profiles: { default: { clientId: 'acme', apiKey: 'demo' } },
    });
    // The ~/.pgpass the recipe makes gives the password for the server of the README's URL, postgres://swapx@db.internal/analytics.
    const pgpass = path.join(root, 'home/.pgpass');
    expect(fs.statSync(pgpass).mode & 0o777).toBe(0o600);
    expect(lookUpPassword(pgpass, { host: 'db.internal', port: 5432, database: 'analytics', user: 'swapx' })).toBe('PASSWORD');
  });
});

/** The example lines of a command's --help: after "Examples…:" up to a blank line, comments dropped, `\` lines joined. */
async function helpExamples(command: string[]): Promise<string[]> {
  const help = (await runSwapx([...command, '--help'])).stdout.split('\n');
  const start = help.findIndex((line) => line.startsWith('Examples'));
  if (start === -1) return [];
  const lines: string[] = [];
  let pending = '';
  for (const raw of help.slice(start + 1)) {
    if (raw.trim() === '') break;
    const line = raw.trim();
    if (line.startsWith('#')) continue;
    if (line.endsWith('\\')) pending += `${line.slice(0, -1).trim()} `;
    else {
      lines.push(pending + line);
      pending = '';
    }
  }
  return lines;
}

// Issue 22.3: every example of every command's help runs as written (in a scratch folder of its own).
describe('help examples', () => {
  const COMMANDS = [['swaps'], ['swap'], ['sync'], ['chains'], ['tokens'], ['bridges'], ['auth', 'login'], ['sandbox'], ['completion']];
  it('every command with examples has them, none a placeholder', async () => {
    for (const command of COMMANDS) {
      const examples = await helpExamples(command);
      expect(examples.length, command.join(' ')).toBeGreaterThan(0);
      expect(examples.filter((l) => l.includes('…') || l.includes('...'))).toEqual([]);
    }
  });
  it('runs each as written, with exit 0', { timeout: 120_000 }, async () => {
    const cwd = process.cwd();
    root = tempDir('swapx-help-');
    fs.writeFileSync(path.join(root, 'token.jwt'), 'demo-token\n');
    for (const dir of ['data', 'home/.local/share/bash-completion/completions', 'home/.zfunc', 'home/.config/fish/completions'])
      fs.mkdirSync(path.join(root, dir), { recursive: true });
    process.chdir(root);
    try {
      for (const command of COMMANDS) {
        for (const line of await helpExamples(command)) {
          const r = await execute(line);
          expect({ line, code: r.code, stderr: r.code === 0 ? '' : r.stderr }).toEqual({ line, code: 0, stderr: '' });
        }
      }
    } finally {
      process.chdir(cwd);
    }
    expect(fs.readFileSync(path.join(root, 'home/.zfunc/_swapx'), 'utf8')).toContain('#compdef swapx');
  });
});
