/** Issue 11.17: `swapx --help` lists the environment and the exit codes; each command's help lists the global options it honours. */
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../src/main.js';
import { runSwapx } from '../helpers/run.js';

const section = (text: string, title: string) => {
  const lines = text.split('\n');
  const start = lines.indexOf(title);
  const end = lines.findIndex((line, i) => i > start && line === '');
  return lines.slice(start + 1, end === -1 ? undefined : end);
};

describe('help', () => {
  it('swapx --help names every environment variable and exit code', async () => {
    const r = await runSwapx(['--help']);
    expect(r.code).toBe(0);
    expect(section(r.stdout, 'Environment:')).toEqual([
      '  SWAPX_CLIENT_ID, SWAPX_API_KEY  Basic credentials; beat the stored profile',
      '  SWAPX_TOKEN                     Bearer token (JWT), when no Basic pair is set',
      '  SWAPX_PROFILE                   the profile to use (like --profile)',
      '  SWAPX_BASE_URL                  the API base address (like --base-url)',
      '  SWAPX_CONFIG_DIR                where profiles are stored',
      '                                  (default: the OS config folder)',
      '  SWAPX_ALLOW_HTTP=1              send credentials over plain http to a test',
      '                                  server beyond loopback',
      '  NO_COLOR                        any value turns colour off (like --no-color)',
      '  FORCE_COLOR=0, TERM=dumb        colour off too',
      '  Precedence: flag > environment > profile > default; a profile named with',
      "  --profile is a flag: its credentials beat the environment's, and one that",
      '  does not exist is exit 2.',
    ]);
    expect(section(r.stdout, 'Exit codes:').map((line) => line.trim().split(/\s+/)[0])).toEqual(['0', '1', '2', '3', '4', '130']);
  });
  // Issue "the people, round two", 6: the list says what each command takes and does.
  it('swapx --help lists each command with the arguments it takes; tokens needs its chain, sync mirrors into Postgres too', async () => {
    const r = await runSwapx(['--help']);
    const commands = section(r.stdout, 'Commands:');
    expect(commands.filter((line) => /^ {2}\S/.test(line)).map((line) => line.trim().split(/\s{2,}/)[0])).toEqual([
      'swaps [options]',
      'sync [options] [status]',
      'swap [options] <identifier>',
      'chains [options]',
      'tokens [options] <blockchainId>',
      'bridges [options]',
      'auth',
      'config',
      'sandbox [options]',
      'completion <shell>',
      'help [command]',
    ]);
    const sync = commands.slice(
      commands.findIndex((line) => line.startsWith('  sync ')),
      commands.findIndex((line) => line.startsWith('  swap ')),
    );
    expect(sync.map((line) => line.trim().replace(/^sync \[options\] \[status\]\s+/, '')).join(' ')).toBe(
      'a current mirror for cron: new, late and updated swaps into daily partitions of a directory, or a Postgres table',
    );
  });
  it.each([['swaps'], ['sync'], ['swap'], ['tokens'], ['auth', 'status'], ['config', 'set']])(
    'swapx %s --help lists the global options',
    async (...command) => {
      const r = await runSwapx([...command, '--help']);
      expect(r.code).toBe(0);
      const globals = section(r.stdout, 'Global Options:')
        .filter((line) => /^\s+-/.test(line))
        .map((line) => line.trim().split(/\s{2,}/)[0]);
      expect(globals).toEqual(['--profile <name>', '--base-url <url>', '--timeout <duration>', '--retries <n>', '-v, --verbose', '-q, --quiet', '--no-color']);
      expect(r.stdout).not.toContain('SWAPX_CONFIG_DIR  ');
    },
  );
  it.each([
    [],
    ['swaps'],
    ['swap'],
    ['sync'],
    ['chains'],
    ['tokens'],
    ['bridges'],
    ['sandbox'],
    ['auth'],
    ['auth', 'login'],
    ['auth', 'status'],
    ['config'],
    ['config', 'set'],
    ['completion'],
  ])('swapx %s --help fits 80 columns', async (...command) => {
    const r = await runSwapx([...command, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter((line) => [...line].length > 80)).toEqual([]);
  });
  // Found trying swapx at 60 columns: commander left descriptions unwrapped, for the terminal to break mid-word.
  it.each([['swaps'], ['swap'], ['sync'], ['tokens'], ['auth', 'login']])('swapx %s --help wraps its options at a 60-column terminal', async (...command) => {
    const r = await runSwapx([...command, '--help'], { tty: { columns: 60 } });
    expect(r.code).toBe(0);
    const options = [...section(r.stdout, 'Options:'), ...section(r.stdout, 'Global Options:')];
    expect(options.length).toBeGreaterThan(8);
    expect(options.filter((line) => [...line].length > 60)).toEqual([]);
  });
  // Every command, found by walking the program, so that a new one is held to this too.
  const commands: string[][] = [[]];
  const walk = (cmd: Command, path: string[]) => {
    for (const sub of cmd.commands) {
      commands.push([...path, sub.name()]);
      walk(sub, [...path, sub.name()]);
    }
  };
  walk(
    buildProgram({} as never, () => {}),
    [],
  );
  it('finds the commands', () => expect(commands.length).toBeGreaterThan(14));
  // Found at 60 columns: the Environment and Exit codes blocks and sync's paragraphs were written for 80, and the
  // terminal broke them mid-word. A word longer than the line (the swap example's 66-character hash) stays whole.
  it.each(commands.map((command) => [command.join(' ') || '(root)', command]))(
    'swapx %s --help: no line wider than a 60-column terminal',
    async (_, command) => {
      const r = await runSwapx([...command, '--help'], { tty: { columns: 60 } });
      expect(r.code).toBe(0);
      const wide = r.stdout.split('\n').filter((line) => [...line].length > 60 && /\s\S/.test(line.trim()));
      expect(wide).toEqual([]);
    },
  );
  it('at 60 columns the root help wraps an item under its description, and a paragraph as one', async () => {
    const r = await runSwapx(['--help'], { tty: { columns: 60 } });
    expect(section(r.stdout, 'Exit codes:')).toEqual([
      '  0    success (an empty result is a success)',
      '  1    the work failed: API or network error after retries,',
      '       file I/O',
      '  2    usage or bad input (checked before any request; or a',
      "       lookup's 400)",
      '  3    authentication or permission (missing credentials,',
      '       403)',
      '  4    not found (swap with no match, unknown chain)',
      '  130  interrupted (Ctrl-C / SIGTERM), after saving what can',
      '       be resumed',
    ]);
    const sync = await runSwapx(['sync', '--help'], { tty: { columns: 60 } });
    const paragraph = sync.stdout.slice(sync.stdout.indexOf('Each partition'));
    expect(paragraph.split('\n').slice(0, 3)).toEqual([
      'Each partition holds one row per swap, its latest version;',
      'it is rewritten whole and atomically, and the state',
      '(.swapx-sync.json) is written after the data it records is',
    ]);
  });
  it('an example too wide is continued with a backslash, so it still runs as pasted', async () => {
    const r = await runSwapx(['completion', '--help'], { tty: { columns: 60 } });
    expect(section(r.stdout, 'Examples (create the folder first: mkdir -p ...):').slice(0, 2)).toEqual([
      '  swapx completion bash > \\',
      '    ~/.local/share/bash-completion/completions/swapx',
    ]);
  });
  it('the sandbox lists only the ones it honours; completion none', async () => {
    const sandbox = await runSwapx(['sandbox', '--help']);
    expect(section(sandbox.stdout, 'Global Options:').map((line) => line.trim().split(/\s{2,}/)[0])).toEqual(['-v, --verbose', '-q, --quiet', '--no-color']);
    expect((await runSwapx(['completion', '--help'])).stdout).not.toContain('Global Options:');
  });
});
