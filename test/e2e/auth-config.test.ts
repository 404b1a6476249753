/** Credentials and settings: login from stdin, status, logout, file modes, precedence, and never a leaked secret. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { cliEnv, tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';

const SECRET = 'k3y-Th4t-Must-Never-Leak';
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, clients: [`acme:${SECRET}`, 'unconfirmed:pending-key-123'], bearerTokens: ['jwt.token.value'] });
});
afterAll(async () => {
  await sandbox.close();
});

function freshEnv(extra: Record<string, string | undefined> = {}) {
  const dir = tempDir();
  return { dir, configDir: path.join(dir, 'cfg'), env: cliEnv({ SWAPX_BASE_URL: sandbox.url, SWAPX_CONFIG_DIR: path.join(dir, 'cfg'), ...extra }) };
}

const basic = Buffer.from(`acme:${SECRET}`).toString('base64');

describe('auth login / status / logout', () => {
  it('stores credentials from stdin in a 0600 file inside a 0700 folder', async () => {
    const { env, configDir } = freshEnv();
    const login = await runSwapx(['auth', 'login', '--client-id', 'acme', '--api-key-stdin'], { env, input: `${SECRET}\n` });
    expect(login.code).toBe(0);
    expect(login.stderr).toBe(`Stored client 'acme' in profile 'default' (${path.join(configDir, 'config.json')})\n`);
    expect(fs.statSync(configDir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(configDir, 'config.json')).mode & 0o777).toBe(0o600);

    const status = await runSwapx(['auth', 'status'], { env });
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^profile\s+default$/m);
    expect(status.stdout).toMatch(/^credentials\s+profile 'default' \(/m);
    expect(status.stdout).toMatch(/^client id\s+acme$/m);
    expect(status.stdout).toMatch(/^API key\s+k3…ak$/m);
    expect(status.stdout).toMatch(/^check\s+accepted by the API$/m);
    expect(status.stdout + status.stderr).not.toContain(SECRET);

    const chains = await runSwapx(['chains'], { env });
    expect(chains.code).toBe(0);

    const logout = await runSwapx(['auth', 'logout'], { env });
    expect(logout.code).toBe(0);
    expect(logout.stderr).toBe("Removed the credentials of profile 'default'\n");
    const after = await runSwapx(['chains'], { env });
    expect(after.code).toBe(3);
    expect(after.stderr).toBe("swapx: error: no credentials: run 'swapx auth login', or set SWAPX_CLIENT_ID and SWAPX_API_KEY (or SWAPX_TOKEN)\n");
  });

  it('does not store credentials the API rejects', async () => {
    const { env, configDir } = freshEnv();
    const login = await runSwapx(['auth', 'login', '--client-id', 'acme', '--api-key-stdin'], { env, input: 'wrong-key' });
    expect(login.code).toBe(3);
    expect(login.stderr).toBe(
      "swapx: error: the API refused client id 'acme' and this API key (HTTP 403: The client id or API key is not valid); nothing was stored: check both and log in again\n",
    );
    expect(fs.existsSync(path.join(configDir, 'config.json'))).toBe(false);
  });

  it('stores a Bearer token from stdin and sends it', async () => {
    const { env } = freshEnv();
    expect((await runSwapx(['auth', 'login', '--token-stdin'], { env, input: 'jwt.token.value' })).code).toBe(0);
    const status = await runSwapx(['auth', 'status'], { env });
    expect(status.stdout).toMatch(/^scheme\s+Bearer$/m);
    expect(status.stdout).toMatch(/^token\s+jw…ue$/m);
  });

  it('keeps profiles apart', async () => {
    const { env } = freshEnv();
    await runSwapx(['auth', 'login', '--profile', 'work', '--client-id', 'acme', '--api-key-stdin'], { env, input: SECRET });
    expect((await runSwapx(['chains', '--profile', 'work'], { env })).code).toBe(0);
    expect((await runSwapx(['chains'], { env })).code).toBe(3);
    expect((await runSwapx(['chains'], { env: { ...env, SWAPX_PROFILE: 'work' } })).code).toBe(0);
  });

  it('environment credentials beat the profile; auth status says so', async () => {
    const { env } = freshEnv({ SWAPX_CLIENT_ID: 'acme', SWAPX_API_KEY: SECRET });
    const status = await runSwapx(['auth', 'status'], { env });
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^credentials\s+the environment \(SWAPX_CLIENT_ID and SWAPX_API_KEY\)$/m);
    expect(status.stdout).not.toMatch(/^profile/m);
  });

  it('rejected credentials: auth status exit 3', async () => {
    const { env } = freshEnv({ SWAPX_CLIENT_ID: 'acme', SWAPX_API_KEY: 'nope-nope-nope' });
    const status = await runSwapx(['auth', 'status'], { env });
    expect(status.code).toBe(3);
    expect(status.stdout).toMatch(/^check\s+rejected \(HTTP 403\)$/m);
  });

  it('403 on a command is exit 3; an unconfirmed account says so', async () => {
    const denied = await runSwapx(['chains'], { env: freshEnv({ SWAPX_CLIENT_ID: 'acme', SWAPX_API_KEY: 'bad' }).env });
    expect(denied.code).toBe(3);
    expect(denied.stderr).toMatch(/^swapx: error: permission denied \(HTTP 403\): Forbidden/);
    const unconfirmed = await runSwapx(['chains'], { env: freshEnv({ SWAPX_CLIENT_ID: 'unconfirmed', SWAPX_API_KEY: 'pending-key-123' }).env });
    expect(unconfirmed.code).toBe(3);
    expect(unconfirmed.stderr).toBe('swapx: error: the API account is not confirmed yet: ask the vendor to confirm it, then try again\n');
  });

  it('refuses to prompt without a terminal, and refuses a secret as a flag value', async () => {
    const { env } = freshEnv();
    const noTty = await runSwapx(['auth', 'login'], { env });
    expect(noTty.code).toBe(2);
    expect(noTty.stderr).toBe(
      'swapx: error: standard input is not a terminal, so swapx cannot prompt: use --client-id <id> --api-key-stdin, or --token-stdin\n',
    );
    const flag = await runSwapx(['auth', 'login', '--client-id', 'acme', '--api-key', SECRET], { env });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe(
      "swapx: --api-key is not accepted: a secret on the command line leaks into ps and shell history; use 'swapx auth login' (hidden prompt), '--api-key-stdin', or the SWAPX_API_KEY environment variable\n",
    );
    expect(flag.stderr).not.toContain(SECRET);
  });
});

describe('secrets never appear', () => {
  it('not in --verbose lines, nor in errors', async () => {
    const { env } = freshEnv({ SWAPX_CLIENT_ID: 'acme', SWAPX_API_KEY: SECRET });
    const ok = await runSwapx(['chains', '-v'], { env });
    expect(ok.stderr).toMatch(/^GET \/v1\/external\/chains 200 \d+ms\n$/);
    const runs = [
      ok,
      await runSwapx(['swap', '0xabc', '-v'], { env }),
      await runSwapx(['tokens', 'atlantis', '-v'], { env }),
      await runSwapx(['swaps', '--from', '2026-11-01', '--to', '2026-11-01T00:40:00Z', '--window', '50m', '-v'], { env }),
      await runSwapx(['chains', '-v', '--retries', '1', '--base-url', 'http://127.0.0.1:9'], { env: { ...env, SWAPX_BASE_URL: undefined } }),
      await runSwapx(['chains', '-v', '--retries', '0'], { env: { ...env, SWAPX_API_KEY: `${SECRET}x` } }),
    ];
    for (const r of runs) {
      expect(r.stdout + r.stderr).not.toContain(SECRET);
      expect(r.stdout + r.stderr).not.toContain(basic);
    }
  });
});

describe('swapx config', () => {
  it('set, get, list with sources, unset', async () => {
    const { env } = freshEnv();
    expect((await runSwapx(['config', 'set', 'concurrency', '8'], { env })).code).toBe(0);
    expect((await runSwapx(['config', 'set', 'timeout', '10s'], { env })).code).toBe(0);
    expect((await runSwapx(['config', 'get', 'concurrency'], { env })).stdout).toBe('8\n');
    const list = await runSwapx(['config', 'list'], { env: { ...env, SWAPX_BASE_URL: 'http://127.0.0.1:1234' } });
    expect(list.stdout).toMatch(/^base-url\s+http:\/\/127\.0\.0\.1:1234\s+env$/m);
    expect(list.stdout).toMatch(/^concurrency\s+8\s+profile 'default'$/m);
    expect(list.stdout).toMatch(/^timeout\s+10s\s+profile 'default'$/m);
    expect(list.stdout).toMatch(/^retries\s+5\s+default$/m);
    expect(list.stdout).toMatch(/^format\s+table on a terminal, jsonl otherwise\s+default$/m);
    const flagWins = await runSwapx(['config', 'get', 'timeout', '--timeout', '3s'], { env });
    expect(flagWins.stdout).toBe('3s\n');
    expect((await runSwapx(['config', 'unset', 'concurrency'], { env })).code).toBe(0);
    expect((await runSwapx(['config', 'get', 'concurrency'], { env })).stdout).toBe('4\n');
  });
  it.each([
    [['config', 'set', 'colour', 'red'], "swapx: error: unknown setting 'colour' (known: base-url, format, concurrency, timeout, retries)\n"],
    [['config', 'get', 'nope'], "swapx: error: unknown setting 'nope' (known: base-url, format, concurrency, timeout, retries)\n"],
    [['config', 'set', 'concurrency', '0'], "swapx: error: concurrency must be a whole number from 1 to 32, not '0'\n"],
    [['config', 'set', 'format', 'xml'], "swapx: error: format: unknown format 'xml' (use one of table, json, jsonl, csv)\n"],
    [['config', 'set', 'base-url', 'not a url'], "swapx: error: base-url is not an http(s) URL: 'not a url'\n"],
  ])('rejects %j with exit 2', async (args, message) => {
    const { env, configDir } = freshEnv();
    const r = await runSwapx(args, { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(message);
    expect(fs.existsSync(path.join(configDir, 'config.json'))).toBe(false);
  });
  it('a profile format setting is the default output', async () => {
    const { env } = freshEnv({ SWAPX_CLIENT_ID: 'acme', SWAPX_API_KEY: SECRET });
    await runSwapx(['config', 'set', 'format', 'csv'], { env });
    expect((await runSwapx(['chains'], { env })).stdout.split('\n')[0]).toBe('blockchainId,name,explorerUrl');
  });
  it('fixes a config file that others can read, with a warning', async () => {
    const { env, configDir } = freshEnv();
    await runSwapx(['config', 'set', 'retries', '3'], { env });
    const file = path.join(configDir, 'config.json');
    fs.chmodSync(file, 0o644);
    const r = await runSwapx(['config', 'get', 'retries'], { env });
    expect(r.stdout).toBe('3\n');
    expect(r.stderr).toBe(`warning: ${file} was readable by other users; its mode is now 0600\n`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('secrets never land in files', () => {
  it('not in export files, manifests, sync state, parts or the lock', async () => {
    const { env, dir } = freshEnv({ SWAPX_CLIENT_ID: 'acme', SWAPX_API_KEY: SECRET });
    const out = path.join(dir, 'out');
    fs.mkdirSync(out);
    const range = ['--from', '2026-11-03T00:00:00Z', '--to', '2026-11-03T01:00:00Z'];
    expect((await runSwapx(['swaps', ...range, '-o', path.join(out, 'x.csv'), '-q'], { env })).code).toBe(0);
    expect(
      (await runSwapx(['sync', '--out', path.join(out, 'sync'), '--since', '2026-11-03T00:00:00Z', '--until', '2026-11-03T01:00:00Z', '-q'], { env })).code,
    ).toBe(0);
    const walk = (d: string): string[] =>
      fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]));
    const files = walk(out);
    expect(files.length).toBeGreaterThan(2);
    for (const file of files) {
      const text = fs.readFileSync(file, 'latin1');
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(basic);
    }
  });
});

describe('credentials from the environment and the file', () => {
  it('trims a trailing newline from an environment secret', async () => {
    const { env } = freshEnv({ SWAPX_CLIENT_ID: 'acme', SWAPX_API_KEY: `${SECRET}\n` });
    expect((await runSwapx(['chains'], { env })).code).toBe(0);
  });
  it('refuses a control character inside one, with exit 3 and without echoing it', async () => {
    const { env } = freshEnv({ SWAPX_TOKEN: 'abc\u0007def' });
    const r = await runSwapx(['chains'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toBe('swapx: error: SWAPX_TOKEN contains a control character; set it to the bare value\n');
  });
  it('a corrupt config file: exit 2 naming the file, never quoting it', async () => {
    const { env, configDir } = freshEnv();
    fs.mkdirSync(configDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(configDir, 'config.json'), `{"profiles":{"default":{"clientId":"acme","apiKey":${SECRET}}}}`, { mode: 0o600 });
    const r = await runSwapx(['chains'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`swapx: error: ${path.join(configDir, 'config.json')} is not valid JSON; fix it, or delete it and run 'swapx auth login' again\n`);
  });
  it('an export refused for credentials leaves no file to resume', async () => {
    const { env, dir } = freshEnv();
    const file = path.join(dir, 'x.csv');
    const r = await runSwapx(['swaps', '--from', '2026-11-03', '--to', '2026-11-04', '-o', file], { env });
    expect(r.code).toBe(3);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('x.csv'))).toEqual([]);
  });
});
