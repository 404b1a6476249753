/** Issue 11.17: `swapx --help` lists the environment and the exit codes; each command's help lists the global options it honours. */
import { describe, expect, it } from 'vitest';
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
      '  Precedence: flag > environment > profile > default.',
    ]);
    expect(section(r.stdout, 'Exit codes:').map((line) => line.trim().split(/\s+/)[0])).toEqual(['0', '1', '2', '3', '4', '130']);
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
  it('the sandbox lists only the ones it honours; completion none', async () => {
    const sandbox = await runSwapx(['sandbox', '--help']);
    expect(section(sandbox.stdout, 'Global Options:').map((line) => line.trim().split(/\s{2,}/)[0])).toEqual(['-v, --verbose', '-q, --quiet', '--no-color']);
    expect((await runSwapx(['completion', '--help'])).stdout).not.toContain('Global Options:');
  });
});
