/** Issue 11.11–11.14 and 11.20: auth status/login/logout/list, plain http refused, the key never echoed, network words, base path kept. */
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

function fresh(extra: Record<string, string> = {}): { env: NodeJS.ProcessEnv; dir: string } {
  const dir = path.join(tempDir(), 'cfg');
  return { dir, env: { NO_COLOR: '1', SWAPX_CONFIG_DIR: dir, SWAPX_BASE_URL: sandbox.url, ...extra } };
}

async function login(env: NodeJS.ProcessEnv, key = 'demo', profile: string[] = []) {
  return runSwapx([...profile, 'auth', 'login', '--client-id', 'demo', '--api-key-stdin'], { env, input: key });
}

describe('auth login', () => {
  it('a wrong key: one clear line, exit 3, nothing stored', async () => {
    const { env, dir } = fresh();
    const r = await login(env, 'wrong');
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      "swapx: error: the API refused client id 'demo' and this API key (HTTP 403: The client id or API key is not valid); nothing was stored: check both and log in again\n",
    );
    expect(fs.existsSync(dir)).toBe(false);
  });
  it('--api-key-stdin on a terminal prompts without echo instead of reading an echoed line', async () => {
    const { env, dir } = fresh();
    const stdin = Object.assign(new PassThrough(), {
      isTTY: true,
      rawModes: [] as boolean[],
      setRawMode(mode: boolean) {
        this.rawModes.push(mode);
      },
    });
    const running = runSwapx(['auth', 'login', '--client-id', 'demo', '--api-key-stdin'], { env, stdin });
    setTimeout(() => stdin.write('demo\r'), 20);
    const r = await running;
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`API key (hidden): \nStored client 'demo' in profile 'default' (${path.join(dir, 'config.json')})\n`);
    expect(stdin.rawModes).toEqual([true, false]);
  });
});

describe('secrets typed at a terminal', () => {
  const terminal = () => Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => true });
  it('--token-stdin prompts without echo too', async () => {
    const { env } = fresh();
    const stdin = terminal();
    const running = runSwapx(['auth', 'login', '--token-stdin'], { env, stdin });
    setTimeout(() => stdin.write('demo-token\r'), 20);
    const r = await running;
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n')[0]).toBe('Token (hidden): ');
  });
  it('an empty entry is exit 2, nothing stored', async () => {
    const { env, dir } = fresh();
    const stdin = terminal();
    const running = runSwapx(['auth', 'login', '--client-id', 'demo', '--api-key-stdin'], { env, stdin });
    setTimeout(() => stdin.write('\r'), 20);
    expect(await running).toEqual({ code: 2, signal: null, stdout: '', stderr: 'API key (hidden): \nswapx: error: no API key was entered\n' });
    expect(fs.existsSync(dir)).toBe(false);
  });
});

describe('auth status', () => {
  it('credentials from the environment are named as such, not as the default profile', async () => {
    const { env } = fresh({ SWAPX_CLIENT_ID: 'demo', SWAPX_API_KEY: 'demo' });
    const r = await runSwapx(['auth', 'status'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'credentials  the environment (SWAPX_CLIENT_ID and SWAPX_API_KEY)',
        'scheme       Basic',
        'client id    demo',
        'API key      ****',
        `base URL     ${sandbox.url} (env)`,
        'check        accepted by the API',
        '',
      ].join('\n'),
    );
  });
  it('API unreachable: the local facts, then the failed check, exit 1', async () => {
    const { env, dir } = fresh();
    await login(env);
    const r = await runSwapx(['auth', 'status', '--retries', '0'], { env: { ...env, SWAPX_BASE_URL: 'http://127.0.0.1:1' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      [
        'profile      default',
        `credentials  profile 'default' (${path.join(dir, 'config.json')})`,
        'scheme       Basic',
        'client id    demo',
        'API key      ****',
        'base URL     http://127.0.0.1:1 (env)',
        'check        not done: connection to 127.0.0.1:1 failed: connection refused',
        '',
      ].join('\n'),
    );
  });
  it('--json: the same facts as one object, the exit code of the check', async () => {
    const { env } = fresh({ SWAPX_TOKEN: 'demo-token-which-is-long' });
    const r = await runSwapx(['auth', 'status', '--json'], { env });
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toEqual({
      profile: 'default',
      source: 'env',
      from: 'the environment (SWAPX_TOKEN)',
      scheme: 'Bearer',
      token: 'de…ng',
      baseUrl: sandbox.url,
      baseUrlSource: 'env',
      check: { ok: false, message: 'rejected (HTTP 403)' },
    });
    const ok = await runSwapx(['auth', 'status', '--json'], { env: { ...env, SWAPX_TOKEN: 'demo-token' } });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).check).toEqual({ ok: true, message: 'accepted by the API' });
  });
});

describe('profiles', () => {
  it('logout removes a profile left empty; auth list shows the others, the active one starred', async () => {
    const { env, dir } = fresh();
    await login(env);
    await login(env, 'demo', ['--profile', 'work']);
    expect((await runSwapx(['--profile', 'work', 'config', 'set', 'concurrency', '8'], { env })).code).toBe(0);
    const before = await runSwapx(['auth', 'list'], { env });
    expect(before.stdout).toBe(
      ['profile    credentials           settings', "* default  Basic, client 'demo'  —", "  work     Basic, client 'demo'  concurrency=8", ''].join('\n'),
    );
    expect((await runSwapx(['auth', 'logout'], { env })).stderr).toBe("Removed the credentials of profile 'default'\n");
    expect((await runSwapx(['--profile', 'work', 'auth', 'logout'], { env })).code).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8'))).toEqual({ profiles: { work: { settings: { concurrency: '8' } } } });
    const after = await runSwapx(['auth', 'list', '--json'], { env });
    expect(JSON.parse(after.stdout)).toEqual([{ name: 'work', active: false, credentials: 'none', settings: ['concurrency=8'] }]);
    await runSwapx(['--profile', 'work', 'config', 'unset', 'concurrency'], { env });
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8'))).toEqual({ profiles: {} });
    const none = await runSwapx(['auth', 'list'], { env });
    expect(none.stdout).toBe('');
    expect(none.stderr).toBe(`No stored profiles in ${path.join(dir, 'config.json')}: 'swapx auth login' (or 'swapx config set') creates one\n`);
  });
});

describe('plain http', () => {
  const refusal = (name: string) =>
    `swapx: error: ${name}: refusing plain http to example.com: the API key would travel in clear text; use https://, or a loopback address, or for a test server set SWAPX_ALLOW_HTTP=1\n`;
  it('config set base-url http://example.com is refused (exit 2) and nothing is stored', async () => {
    const { env, dir } = fresh();
    const r = await runSwapx(['config', 'set', 'base-url', 'http://example.com'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(refusal('base-url'));
    expect(fs.existsSync(dir)).toBe(false);
  });
  it('the same from the environment and the flag, before any request', async () => {
    const { env } = fresh({ SWAPX_CLIENT_ID: 'demo', SWAPX_API_KEY: 'demo' });
    expect(await runSwapx(['chains'], { env: { ...env, SWAPX_BASE_URL: 'http://example.com' } })).toEqual({
      code: 2,
      signal: null,
      stdout: '',
      stderr: refusal('SWAPX_BASE_URL'),
    });
    expect(await runSwapx(['--base-url', 'http://example.com', 'chains'], { env })).toEqual({
      code: 2,
      signal: null,
      stdout: '',
      stderr: refusal('--base-url'),
    });
  });
  it('loopback is accepted; SWAPX_ALLOW_HTTP=1 lets a test server through', async () => {
    const { env } = fresh();
    expect((await runSwapx(['config', 'set', 'base-url', 'http://127.0.0.1:9000'], { env })).code).toBe(0);
    expect((await runSwapx(['config', 'set', 'base-url', 'http://example.com'], { env: { ...env, SWAPX_ALLOW_HTTP: '1' } })).code).toBe(0);
  });
});

describe('network errors and base paths', () => {
  it('-v and errors say what happened in words, with the base URL path in front', async () => {
    const env = { NO_COLOR: '1', SWAPX_CONFIG_DIR: tempDir(), SWAPX_CLIENT_ID: 'demo', SWAPX_API_KEY: 'demo', SWAPX_BASE_URL: 'http://127.0.0.1:1/prefix' };
    const r = await runSwapx(['-v', '--retries', '0', 'chains'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr.replace(/ \d+ms/, ' Nms')).toBe(
      'GET /prefix/v1/external/chains connection refused Nms\nswapx: error: connection to 127.0.0.1:1 failed: connection refused\n',
    );
  });
  it('an API error names the whole path', async () => {
    const env = { NO_COLOR: '1', SWAPX_CONFIG_DIR: tempDir(), SWAPX_CLIENT_ID: 'demo', SWAPX_API_KEY: 'demo', SWAPX_BASE_URL: `${sandbox.url}/api` };
    const r = await runSwapx(['chains'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^swapx: error: not found: .*\(GET \/api\/v1\/external\/chains\)\n$/);
  });
});

describe('auth status without credentials', () => {
  it('shows the profile and the API, then the hint; exit 3; --json too', async () => {
    const { env } = fresh();
    const r = await runSwapx(['auth', 'status'], { env });
    expect(r).toEqual({
      code: 3,
      signal: null,
      stdout: `profile      default\ncredentials  none\nbase URL     ${sandbox.url} (env)\n`,
      stderr: "swapx: error: no credentials: run 'swapx auth login', or set SWAPX_CLIENT_ID and SWAPX_API_KEY (or SWAPX_TOKEN)\n",
    });
    // A profile that exists without credentials (a profile never made is exit 2: test/cli/profiles.test.ts).
    expect((await runSwapx(['--profile', 'work', 'config', 'set', 'retries', '2'], { env })).code).toBe(0);
    const json = await runSwapx(['--profile', 'work', 'auth', 'status', '--json'], { env });
    expect(json.code).toBe(3);
    expect(json.stderr).toBe(
      "swapx: error: no credentials in profile 'work': run 'swapx auth login --profile work' (with --profile, credentials in the environment are not used)\n",
    );
    expect(JSON.parse(json.stdout)).toEqual({
      profile: 'work',
      source: null,
      baseUrl: sandbox.url,
      baseUrlSource: 'env',
      check: { ok: false, message: 'no credentials' },
    });
  });
});
