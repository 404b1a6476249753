/**
 * Issue "the people, round two", 3: profiles as the AWS CLI treats them. A profile named with --profile is a flag:
 * its credentials beat the environment's (which are not read then); SWAPX_PROFILE is an environment variable, whose
 * profile the environment's credentials beat (as AWS_PROFILE's); a named profile that does not exist is exit 2
 * whatever the environment holds; auth login --base-url keeps the API in the profile.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { cliEnv, tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, clients: ['demo:demo', 'acme:acme-key'] });
});
afterAll(async () => {
  await sandbox.close();
});

/** A store with profile 'work' (client acme, accepted), and an environment whose own credentials the API refuses. */
async function storeWithWork(extra: Record<string, string> = {}) {
  const dir = path.join(tempDir(), 'cfg');
  const env = cliEnv({ SWAPX_BASE_URL: sandbox.url, SWAPX_CONFIG_DIR: dir });
  const login = await runSwapx(['--profile', 'work', 'auth', 'login', '--client-id', 'acme', '--api-key-stdin'], { env, input: 'acme-key' });
  expect([login.code, login.stderr]).toEqual([0, `Stored client 'acme' in profile 'work' (${path.join(dir, 'config.json')})\n`]);
  return { dir, env: { ...env, SWAPX_CLIENT_ID: 'intruder', SWAPX_API_KEY: 'refused', ...extra } };
}

describe('which credentials', () => {
  it('--profile beats credentials in the environment', async () => {
    const { env } = await storeWithWork();
    const r = await runSwapx(['--profile', 'work', 'chains', '--fields', 'blockchainId', '--csv'], { env });
    expect([r.code, r.stderr, r.stdout.split('\n')[1]]).toEqual([0, '', 'ethereum']);
    const status = await runSwapx(['auth', 'status', '--profile', 'work'], { env });
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^credentials\s+profile 'work' \(/m);
    expect(status.stdout).toMatch(/^client id\s+acme$/m);
  });
  it("the environment beats SWAPX_PROFILE's profile, as it beats AWS_PROFILE's", async () => {
    const { env } = await storeWithWork({ SWAPX_PROFILE: 'work' });
    const r = await runSwapx(['chains'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^swapx: error: permission denied \(HTTP 403\)/);
    const { SWAPX_CLIENT_ID: _id, SWAPX_API_KEY: _key, ...withoutCredentials } = env;
    expect((await runSwapx(['chains'], { env: withoutCredentials })).code).toBe(0);
  });
  it('--profile names a profile without credentials: exit 3, the environment not used in its place', async () => {
    const { env } = await storeWithWork();
    expect((await runSwapx(['--profile', 'bare', 'config', 'set', 'retries', '2'], { env })).code).toBe(0);
    const before = sandbox.stats().requests;
    const r = await runSwapx(['--profile', 'bare', 'chains'], { env: { ...env, SWAPX_CLIENT_ID: 'demo', SWAPX_API_KEY: 'demo' } });
    expect([r.code, r.stdout, r.stderr]).toEqual([
      3,
      '',
      "swapx: error: no credentials in profile 'bare': run 'swapx auth login --profile bare' (with --profile, credentials in the environment are not used)\n",
    ]);
    expect(sandbox.stats().requests).toBe(before);
  });
});

describe('a profile that does not exist', () => {
  it('is exit 2 with --profile even when the environment holds credentials, before any request', async () => {
    const { env } = await storeWithWork({ SWAPX_CLIENT_ID: 'demo', SWAPX_API_KEY: 'demo' });
    const before = sandbox.stats().requests;
    for (const argv of [
      ['--profile', 'wrok', 'chains'],
      ['swap', '6ae6804ca1ceb0a431f6317d', '--profile', 'wrok'],
      ['--profile', 'wrok', 'auth', 'status'],
      ['--profile', 'wrok', 'config', 'list'],
    ]) {
      const r = await runSwapx(argv, { env });
      expect([argv, r.code, r.stdout, r.stderr]).toEqual([
        argv,
        2,
        '',
        "swapx: error: --profile: unknown profile 'wrok' (known: work); create it with 'swapx auth login --profile wrok'\n",
      ]);
    }
    expect(sandbox.stats().requests).toBe(before);
  });
  it('is exit 2 from SWAPX_PROFILE too, whatever credentials the environment holds', async () => {
    const { env } = await storeWithWork({ SWAPX_CLIENT_ID: 'demo', SWAPX_API_KEY: 'demo', SWAPX_PROFILE: 'wrok' });
    const r = await runSwapx(['chains'], { env });
    expect([r.code, r.stderr]).toEqual([
      2,
      "swapx: error: SWAPX_PROFILE: unknown profile 'wrok' (known: work); create it with 'swapx auth login --profile wrok'\n",
    ]);
  });
  it('is made by auth login --profile NAME; the default profile needs no making', async () => {
    const { env, dir } = await storeWithWork();
    const { SWAPX_CLIENT_ID: _id, SWAPX_API_KEY: _key, ...clean } = env;
    const login = await runSwapx(['auth', 'login', '--profile', 'home', '--client-id', 'demo', '--api-key-stdin'], { env: clean, input: 'demo' });
    expect([login.code, login.stderr]).toEqual([0, `Stored client 'demo' in profile 'home' (${path.join(dir, 'config.json')})\n`]);
    expect((await runSwapx(['--profile', 'home', 'chains'], { env: clean })).code).toBe(0);
    expect((await runSwapx(['--profile', 'default', 'chains'], { env: clean })).code).toBe(3);
  });
});

describe('auth login --base-url', () => {
  it('keeps the base URL in the profile: the next command goes there', async () => {
    const dir = path.join(tempDir(), 'cfg');
    const env = cliEnv({ SWAPX_CONFIG_DIR: dir });
    const login = await runSwapx(['auth', 'login', '--base-url', `${sandbox.url}/`, '--client-id', 'demo', '--api-key-stdin'], { env, input: 'demo' });
    expect([login.code, login.stderr]).toEqual([0, `Stored client 'demo' for ${sandbox.url} in profile 'default' (${path.join(dir, 'config.json')})\n`]);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8'))).toEqual({
      profiles: { default: { settings: { 'base-url': sandbox.url }, clientId: 'demo', apiKey: 'demo' } },
    });
    const before = sandbox.stats().requests;
    const chains = await runSwapx(['chains', '--csv', '--fields', 'blockchainId'], { env });
    expect([chains.code, chains.stderr, chains.stdout.split('\n')[1]]).toEqual([0, '', 'ethereum']);
    expect(sandbox.stats().requests).toBe(before + 1);
    expect((await runSwapx(['config', 'list'], { env })).stdout).toMatch(new RegExp(`^base-url\\s+${sandbox.url}\\s+profile 'default'$`, 'm'));
  });
  it('a base URL from the environment is used for the check, not stored', async () => {
    const dir = path.join(tempDir(), 'cfg');
    const env = cliEnv({ SWAPX_CONFIG_DIR: dir, SWAPX_BASE_URL: sandbox.url });
    expect((await runSwapx(['auth', 'login', '--client-id', 'demo', '--api-key-stdin'], { env, input: 'demo' })).code).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8'))).toEqual({ profiles: { default: { clientId: 'demo', apiKey: 'demo' } } });
  });
  it('credentials refused at the --base-url store neither', async () => {
    const dir = path.join(tempDir(), 'cfg');
    const r = await runSwapx(['auth', 'login', '--base-url', sandbox.url, '--client-id', 'demo', '--api-key-stdin'], {
      env: cliEnv({ SWAPX_CONFIG_DIR: dir }),
      input: 'wrong',
    });
    expect(r.code).toBe(3);
    expect(fs.existsSync(path.join(dir, 'config.json'))).toBe(false);
  });
});
