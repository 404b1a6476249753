/**
 * What -o FILE names decides, in one place, what every command writing a file does (fs/output-target.ts): a device,
 * a FIFO or a socket is refused before any request (exit 2), a symbolic link is written through, a link to nothing
 * is refused. Run as root the way CI does: /dev/null is only ever pointed at, never written.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';

// Nothing listens here: a run that sent a request would fail with exit 1, not the refusal wanted.
const offline = { SWAPX_BASE_URL: 'http://127.0.0.1:9', SWAPX_CLIENT_ID: 'demo', SWAPX_API_KEY: 'demo', SWAPX_CONFIG_DIR: '/nonexistent/swapx-cfg' };
const COMMANDS: Record<string, string[]> = {
  chains: ['chains'],
  tokens: ['tokens', 'ethereum'],
  bridges: ['bridges'],
  swap: ['swap', `0x${'ab'.repeat(32)}`],
  swaps: ['swaps', '--from', '2026-11-02T00:00:00Z', '--to', '2026-11-02T01:00:00Z', '--retries', '0'],
};
const advice = 'swapx writes a file beside its target and renames it into place; to write into it, use -o - (standard output) and redirect';

let dir: string;
let fifo: string;
let socketPath: string;
let socketServer: net.Server;
let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = tempDir();
  fifo = path.join(dir, 'pipe.jsonl');
  execFileSync('mkfifo', [fifo]);
  socketPath = path.join(dir, 'sock.jsonl');
  socketServer = net.createServer();
  await new Promise<void>((resolve) => socketServer.listen(socketPath, resolve));
  sandbox = await startSandbox({ port: 0, seed: 7 });
  env = sandboxEnv(sandbox.url, path.join(dir, 'cfg'));
});
afterAll(async () => {
  await new Promise((resolve) => socketServer.close(resolve));
  await sandbox.close();
});

describe.each(Object.keys(COMMANDS))('swapx %s -o', (name) => {
  const args = COMMANDS[name]!;
  it('a device is refused before any request (exit 2), and left a device', async () => {
    const r = await runSwapx([...args, '-o', '/dev/null', '--format', 'jsonl'], { env: offline });
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `swapx: error: -o /dev/null is a device, not a file: ${advice}\n`]);
    expect(fs.statSync('/dev/null').isCharacterDevice()).toBe(true);
  });
  it('a FIFO is refused, and stays a FIFO', async () => {
    const r = await runSwapx([...args, '-o', fifo], { env: offline });
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `swapx: error: -o ${fifo} is a FIFO, not a file: ${advice}\n`]);
    expect(fs.lstatSync(fifo).isFIFO()).toBe(true);
  });
  it('a socket is refused', async () => {
    const r = await runSwapx([...args, '-o', socketPath], { env: offline });
    expect([r.code, r.stderr]).toEqual([2, `swapx: error: -o ${socketPath} is a socket, not a file: ${advice}\n`]);
    expect(fs.lstatSync(socketPath).isSocket()).toBe(true);
  });
  it('a symbolic link to a device is refused, and stays a link', async () => {
    const link = path.join(dir, `${name}-null.jsonl`);
    fs.symlinkSync('/dev/null', link);
    const r = await runSwapx([...args, '-o', link], { env: offline });
    expect([r.code, r.stderr]).toEqual([2, `swapx: error: -o ${link} is a symbolic link to /dev/null, a device, not a file: ${advice}\n`]);
    expect(fs.readlinkSync(link)).toBe('/dev/null');
  });
  it('a symbolic link to nothing is refused', async () => {
    const link = path.join(dir, `${name}-dangling.jsonl`);
    fs.symlinkSync('gone.jsonl', link);
    const r = await runSwapx([...args, '-o', link], { env: offline });
    expect([r.code, r.stderr]).toEqual([
      2,
      `swapx: error: -o ${link} is a symbolic link to gone.jsonl, which does not exist: give the path of the file to write\n`,
    ]);
    expect(fs.existsSync(path.join(dir, 'gone.jsonl'))).toBe(false);
  });
  it('a directory is refused before any request', async () => {
    const folder = path.join(dir, `${name}-folder`);
    fs.mkdirSync(folder);
    const r = await runSwapx([...args, '-o', folder, '--format', 'jsonl'], { env: offline });
    expect([r.code, r.stderr]).toEqual([2, `swapx: error: -o ${folder} is a directory, not a file: name a file in it (-o ${folder}/NAME)\n`]);
  });
  it('a folder that does not exist is named before any request (exit 1, as any file error)', async () => {
    const file = path.join(dir, 'nowhere', 'x.jsonl');
    const r = await runSwapx([...args, '-o', file], { env: offline });
    expect([r.code, r.stderr]).toEqual([1, `swapx: error: no such file or directory: ${file}\n`]);
  });
});

describe('a symbolic link is written through', () => {
  it.each(['chains', 'swaps'])('%s: the file it names gets the output, the link stays', async (name) => {
    const real = path.join(dir, `${name}-real.jsonl`);
    fs.writeFileSync(real, 'old\n');
    const link = path.join(dir, `${name}-latest.jsonl`);
    fs.symlinkSync(path.basename(real), link);
    const args = name === 'chains' ? ['chains'] : ['swaps', '--from', '2026-11-02T00:00:00Z', '--to', '2026-11-02T00:30:00Z', '--force', '-q'];
    const expected = await runSwapx(name === 'chains' ? args : args.filter((a) => a !== '--force'), { env });
    const r = await runSwapx([...args, '-o', link], { env });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readlinkSync(link)).toBe(path.basename(real));
    expect(fs.readFileSync(real, 'utf8')).toBe(expected.stdout);
    // Nothing left beside either: no temporary file, no .partial, no lock.
    expect(fs.readdirSync(dir).filter((f) => f.includes('.tmp') || f.includes('.partial'))).toEqual([]);
  });

  it('the profile store kept as a link stays a link', async () => {
    const cfg = path.join(dir, 'linked-cfg');
    fs.mkdirSync(cfg);
    const kept = path.join(dir, 'dotfiles-config.json');
    fs.writeFileSync(kept, '{"profiles":{}}\n', { mode: 0o600 });
    fs.symlinkSync(kept, path.join(cfg, 'config.json'));
    const r = await runSwapx(['config', 'set', 'concurrency', '3'], { env: { SWAPX_CONFIG_DIR: cfg } });
    expect([r.code, r.stderr]).toEqual([0, "Set concurrency in profile 'default'\n"]);
    expect(fs.lstatSync(path.join(cfg, 'config.json')).isSymbolicLink()).toBe(true);
    expect(JSON.parse(fs.readFileSync(kept, 'utf8'))).toEqual({ profiles: { default: { settings: { concurrency: '3' } } } });
  });
});
