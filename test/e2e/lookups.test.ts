/** The lookup commands, run in-process as a user runs them, against a sandbox over real sockets. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';

let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
let dir: string;
let chains: { blockchainId: string; name: string; explorerUrl: string }[];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 7 });
  dir = tempDir();
  env = sandboxEnv(sandbox.url, path.join(dir, 'config'));
  chains = (await (
    await fetch(`${sandbox.url}/v1/external/chains`, { headers: { authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}` } })
  ).json()) as typeof chains;
});
afterAll(async () => {
  await sandbox.close();
});

describe('swapx chains', () => {
  it('prints JSON Lines when piped, exactly the API records', async () => {
    const r = await runSwapx(['chains'], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(chains.map((c) => `${JSON.stringify(c)}\n`).join(''));
  });
  it('prints a table for people when stdout is a terminal, with the same records', async () => {
    const r = await runSwapx(['chains'], { env, tty: { columns: 120 } });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^blockchainId\s+name\s+explorerUrl$/);
    expect(lines.slice(-chains.length).map((line) => line.split(/\s{2,}/)[0])).toEqual(chains.map((c) => c.blockchainId));
  });
  it('prints one JSON array with --json', async () => {
    const r = await runSwapx(['chains', '--json'], { env });
    expect(JSON.parse(r.stdout)).toEqual(chains);
  });
  it('prints CSV with a header with --csv', async () => {
    const r = await runSwapx(['chains', '--csv'], { env });
    expect(r.stdout.split('\n')[0]).toBe('blockchainId,name,explorerUrl');
    expect(parse(r.stdout, { columns: true })).toEqual(chains);
  });
  it('prints an aligned table with --format table', async () => {
    const r = await runSwapx(['chains', '--format', 'table'], { env });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^blockchainId\s+name\s+explorerUrl$/);
    expect(lines).toHaveLength(chains.length + 1);
    expect(lines[1]).toMatch(new RegExp(`^${chains[0]!.blockchainId}\\s+${chains[0]!.name.replace(/[()]/g, '.')}\\s+${chains[0]!.explorerUrl}$`));
    expect(r.stdout).not.toMatch(/\u001b\[/);
  });
  it('--fields picks and orders columns', async () => {
    const r = await runSwapx(['chains', '--fields', 'name,blockchainId', '--csv'], { env });
    expect(r.stdout.split('\n').slice(0, 2)).toEqual(['name,blockchainId', `${chains[0]!.name},${chains[0]!.blockchainId}`]);
  });
  it('-o writes the file atomically, format from the extension, .gz gzips', async () => {
    const file = path.join(dir, 'chains.csv.gz');
    const r = await runSwapx(['chains', '-o', file], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(parse(gunzipSync(fs.readFileSync(file)).toString(), { columns: true })).toEqual(chains);
    expect(fs.readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
  });
  it('-o into a directory that does not exist names the file as given, not the temporary one', async () => {
    const file = path.join(dir, 'nodir', 'chains.json');
    const r = await runSwapx(['chains', '-o', file], { env });
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', `swapx: error: no such file or directory: ${file}\n`]);
  });
});

describe('swapx tokens', () => {
  it('pages with --take/--offset', async () => {
    const r = await runSwapx(['tokens', 'ethereum', '--take', '3', '--offset', '1', '--json'], { env });
    expect(r.code).toBe(0);
    const tokens = JSON.parse(r.stdout) as { symbol: string }[];
    expect(tokens).toHaveLength(3);
    const first = JSON.parse((await runSwapx(['tokens', 'ethereum', '--take', '4', '--json'], { env })).stdout) as unknown[];
    expect(tokens).toEqual(first.slice(1));
  });
  it('--all pages through every token', async () => {
    const r = await runSwapx(['tokens', 'ethereum', '--all', '--jsonl', '-v'], { env });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(2500);
    expect(new Set(lines).size).toBe(lines.length);
    const requests = r.stderr.trimEnd().split('\n');
    expect(requests.length).toBe(Math.ceil(lines.length / 1000));
    expect(requests[0]).toMatch(/^GET \/v1\/external\/chains\/ethereum\/tokens\?Take=1000&Offset=0 200 \d+ms$/);
  });
  it('an unknown chain is exit 4', async () => {
    const r = await runSwapx(['tokens', 'atlantis'], { env });
    expect(r.code).toBe(4);
    expect(r.stderr).toBe("swapx: error: unknown chain 'atlantis' ('swapx chains' lists the ids)\n");
    expect(r.stdout).toBe('');
  });
});

describe('swapx bridges', () => {
  it('lists listed bridges by volume; --include-delisted adds the rest', async () => {
    const listed = JSON.parse((await runSwapx(['bridges', '--json'], { env })).stdout) as { delisted: boolean; allTimeSwapsVolume: number }[];
    const all = JSON.parse((await runSwapx(['bridges', '--include-delisted', '--json'], { env })).stdout) as typeof listed;
    expect(listed.every((b) => !b.delisted)).toBe(true);
    expect(all.some((b) => b.delisted)).toBe(true);
    expect(all.length).toBeGreaterThan(listed.length);
    expect([...listed].sort((a, b) => b.allTimeSwapsVolume - a.allTimeSwapsVolume)).toEqual(listed);
  });
  it('shows status in colour for people, never when NO_COLOR is set', async () => {
    const coloured = await runSwapx(['bridges', '--format', 'table'], { env: { ...env, NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(coloured.stdout).toMatch(/\u001b\[32mOperational/);
    const plain = await runSwapx(['bridges', '--format', 'table'], { env: { ...env, NO_COLOR: '1', FORCE_COLOR: '1' } });
    expect(plain.stdout).not.toMatch(/\u001b\[/);
    expect(plain.stdout).toMatch(/\$\d+\.\d\d[kMBT]/);
  });
});

describe('swapx swap', () => {
  let sample: Record<string, unknown>;
  beforeAll(async () => {
    const r = await runSwapx(['swaps', '--from', '2026-11-10T00:00:00Z', '--to', '2026-11-10T00:05:00Z', '--jsonl', '-q'], { env });
    sample = JSON.parse(r.stdout.split('\n')[0]!) as Record<string, unknown>;
  });
  it.each(['id', 'sourceTransaction', 'destinationTransaction'])('finds a swap by %s, with balance changes', async (field) => {
    const r = await runSwapx(['swap', String(sample[field]), '--json'], { env });
    expect(r.code).toBe(0);
    const found = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(found).toHaveLength(1);
    const { balanceChanges, ...rest } = found[0]!;
    expect(rest).toEqual(sample);
    expect(Array.isArray(balanceChanges)).toBe(true);
  });
  it('shows both legs, times, status and balance changes for people', async () => {
    // Wide enough for the legs side by side (on 80 columns they stack: test/cli/tables.test.ts).
    const r = await runSwapx(['swap', String(sample.sourceTransaction), '--format', 'table'], { env: { ...env, COLUMNS: '200' } });
    expect(r.stdout).toContain(`Swap ${String(sample.id)}`);
    expect(r.stdout).toMatch(/source \(deposit\)\s+destination \(withdrawal\)/);
    expect(r.stdout).toContain(String(sample.sourceTransaction));
    expect(r.stdout).toContain(String(sample.destinationTransaction));
    expect(r.stdout).toMatch(/completed\s+\S+/);
    expect(r.stdout).toContain(`USD check        ${String(sample.usdMismatchStatus)}`);
    expect(r.stdout).toContain('Balance changes');
  });
  it('CSV has one column per spec field, balanceChanges as JSON', async () => {
    const r = await runSwapx(['swap', String(sample.id), '--csv'], { env });
    const [row] = parse(r.stdout, { columns: true }) as Record<string, string>[];
    expect(row!.id).toBe(sample.id);
    expect(JSON.parse(row!.balanceChanges!)).toBeInstanceOf(Array);
  });
  // Issue 22.1: an EVM hash pasted without its 0x finds the swap (asked as given first: other chains' hashes are 64 hex digits too).
  it('finds a swap by an EVM hash pasted without 0x', async () => {
    const r0 = await runSwapx(['swaps', '--from', '2026-11-10T00:00:00Z', '--to', '2026-11-10T00:05:00Z', '--jsonl', '-q'], { env });
    const evm = r0.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((swap) => /^0x[0-9a-f]{64}$/.test(String(swap.sourceTransaction)))!;
    const bare = String(evm.sourceTransaction).slice(2).toUpperCase();
    const before = sandbox.stats().requests;
    const r = await runSwapx(['swap', bare, '--jsonl'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { id: string }).id).toBe(evm.id);
    expect(sandbox.stats().requests - before).toBe(2);
  });
  // Issue 22.4: indented on a terminal (as gh --json), compact through a pipe.
  it('--json is indented on a terminal and one line per record through a pipe', async () => {
    const piped = await runSwapx(['swap', String(sample.id), '--json'], { env });
    expect(piped.stdout.split('\n')).toHaveLength(4);
    expect(piped.stdout.startsWith('[\n{"id":')).toBe(true);
    const shown = await runSwapx(['swap', String(sample.id), '--json'], { env, tty: { columns: 80 } });
    expect(shown.code).toBe(0);
    expect(shown.stdout.startsWith(`[\n  {\n    "id": "${String(sample.id)}",\n    "timestamp": `)).toBe(true);
    expect(JSON.parse(shown.stdout)).toEqual(JSON.parse(piped.stdout));
    expect(Math.max(...shown.stdout.split('\n').map((line) => line.length))).toBeLessThan(140);
  });
  it('no match for a hash without 0x names both forms asked', async () => {
    const r = await runSwapx(['swap', '0'.repeat(64)], { env });
    expect([r.code, r.stdout, r.stderr]).toEqual([
      4,
      '',
      `swapx: error: no swap matches '${'0'.repeat(64)}' or '0x${'0'.repeat(64)}' (looked up as a transaction hash and as a swap id)\n`,
    ]);
  });
  it('no match is exit 4 with nothing on stdout', async () => {
    const r = await runSwapx(['swap', '0x0000000000000000000000000000000000000000000000000000000000000000'], { env });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      "swapx: error: no swap matches '0x0000000000000000000000000000000000000000000000000000000000000000' (looked up as a transaction hash and as a swap id)\n",
    );
  });
});
