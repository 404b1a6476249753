/**
 * Bad input to `swapx sync`: exit 2, one line naming the problem, before any
 * request, and the directory untouched (a corrupt state is never overwritten).
 * The sandbox here serves nobody else, so its request count must stay 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { SWAP_FIELDS } from '../../src/api/types.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { serializeState, type SyncQuery } from '../../src/mirror/partitions/state-file.js';
import { newState } from '../../src/sync/store.js';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';

let sandbox: RunningSandbox;
let base: string;
let env: NodeJS.ProcessEnv;
let before: Record<string, string>;

function stateText(query: Partial<SyncQuery> = {}): string {
  const state = newState<SyncQuery>(
    { baseUrl: sandbox.url, filter: 'Completed', format: 'jsonl', fields: [...SWAP_FIELDS], gzip: false, ...query },
    Date.parse('2026-11-09T00:00:00Z'),
  );
  state.cursor = Date.parse('2026-11-10T00:00:00Z');
  state.rescanBase = state.cursor;
  return serializeState(state, Date.parse('2026-11-10T00:01:00Z'));
}

function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(dir, { recursive: true }).map(String).sort()) {
    const file = path.join(dir, name);
    out[name] = fs.statSync(file).isDirectory() ? 'dir' : fs.readFileSync(file, 'utf8');
  }
  return out;
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  base = tempDir('swapx-sync-bad-');
  env = sandboxEnv(sandbox.url, path.join(tempDir('swapx-cfg-'), 'cfg'));
  const write = (name: string, text: string) => {
    fs.mkdirSync(path.join(base, name));
    fs.writeFileSync(path.join(base, name, '.swapx-sync.json'), text);
  };
  write('synced', stateText());
  write('csv', stateText({ format: 'csv' }));
  write('elsewhere', stateText({ baseUrl: 'http://127.0.0.1:1' }));
  write('no-updatedAt', stateText({ fields: ['id', 'completedAt', 'bridge'] }));
  write('corrupt', '{"version": 1, "cursor": ');
  write('invalid', stateText().replace('"cursor": "2026-11-10T00:00:00Z"', '"cursor": "soon"'));
  before = tree(base);
});
afterAll(async () => {
  expect(sandbox.stats().requests).toBe(0);
  expect(tree(base)).toEqual(before);
  await sandbox.close();
});

const at = (name: string) => () => path.join(base, name);
type Case = [name: string, args: (string | (() => string))[], message: RegExp];

const CASES: Case[] = [
  ['no --out', ['--since', '2026-11-01'], /^--out <dir> is missing: the directory that holds the partitions and the sync state$/],
  ['empty --out', ['--out', '', '--since', '2026-11-01'], /^--out <dir> is missing/],
  [
    'first run without --since',
    ['--out', at('fresh')],
    /^\S+fresh has no sync state yet: the first run needs --since <time>, where the sync starts \(e\.g\. --since 2026-11-01\)$/,
  ],
  [
    '--until before --since',
    ['--out', at('fresh'), '--since', '2026-11-02', '--until', '2026-11-01'],
    /^--until \(2026-11-01T00:00:00Z\) is before --since \(2026-11-02T00:00:00Z\)$/,
  ],
  [
    '--until before the cursor',
    ['--out', at('synced'), '--until', '2026-11-09T12:00:00Z'],
    /^--until 2026-11-09T12:00:00Z is before the cursor of \S+synced \(2026-11-10T00:00:00Z\): those swaps are synced already$/,
  ],
  [
    '--until in the future',
    ['--out', at('synced'), '--until', '2099-01-01'],
    /^--until 2099-01-01T00:00:00Z is in the future: the cursor would pass swaps that have not completed yet$/,
  ],
  ['--since in the future', ['--out', at('fresh'), '--since', '2099-01-01'], /^--since 2099-01-01T00:00:00Z is in the future$/],
  ['--since unreadable', ['--out', at('fresh'), '--since', 'last week'], /^--since: cannot read 'last week' as a time; use /],
  [
    'another format',
    ['--out', at('csv'), '--format', 'jsonl'],
    /^\S+csv holds a sync of another query \(format was "csv", now "jsonl"\); sync this one into a new --out dir$/,
  ],
  [
    'another gzip',
    ['--out', at('synced'), '--gzip'],
    /^\S+synced holds a sync of another query \(gzip was false, now true\); sync this one into a new --out dir$/,
  ],
  [
    'another base URL',
    ['--out', at('elsewhere')],
    /^\S+elsewhere holds a sync of another query \(base URL was "http:\/\/127\.0\.0\.1:1", now "http:\/\/127\.0\.0\.1:\d+"\); if the API moved there, run again with --move-base-url to continue this mirror, else sync into a new --out dir$/,
  ],
  [
    'another field list',
    ['--out', at('synced'), '--fields', 'id,completedAt,updatedAt'],
    /^\S+synced holds a sync of another query \(--fields was \[.*\], now \["id","completedAt","updatedAt"\]\)/,
  ],
  [
    'a mirror of fields without updatedAt',
    ['--out', at('no-updatedAt')],
    /^\S+no-updatedAt syncs --fields without updatedAt, which a mirror that keeps the latest version of each swap needs; sync into a new --out dir$/,
  ],
  [
    'corrupt state',
    ['--out', at('corrupt')],
    /^the sync state \S+corrupt\/\.swapx-sync\.json is corrupt \(.*\); it was left untouched: restore it from a backup, or sync into a new --out dir$/,
  ],
  ['invalid state', ['--out', at('invalid')], /^the sync state \S+ is corrupt \(cursor is not a UTC time\); it was left untouched/],
  [
    'format json',
    ['--out', at('fresh'), '--since', '1d', '--format', 'json'],
    /^--format: sync writes jsonl, csv \(optionally \.gz, e\.g\. jsonl\.gz\) or parquet, not 'json'$/,
  ],
  [
    'fields without completedAt',
    ['--out', at('fresh'), '--since', '1d', '--fields', 'id,bridge,updatedAt'],
    /^--fields must include completedAt: sync keeps one row per swap id, in its completedAt partition, the latest by updatedAt$/,
  ],
  [
    'fields without updatedAt',
    ['--out', at('fresh'), '--since', '1d', '--fields', 'id,completedAt'],
    /^--fields must include updatedAt: sync keeps one row per swap id/,
  ],
  ['unknown field', ['--out', at('fresh'), '--since', '1d', '--fields', 'id,nope'], /^--fields: unknown field 'nope'/],
  ['--since beyond a date', ['--out', at('fresh'), '--since', '20000000w'], /^--since '20000000w' is beyond the dates a time can hold$/],
  ['--lag unreadable', ['--out', at('synced'), '--lag', 'two days'], /^--lag: 'two days' is not a duration \(such as 90s, 15m, 48h, or 0\)$/],
  ['--lag negative', ['--out', at('synced'), '--lag', '-1h'], /^--lag: '-1h' is not a duration/],
  ['--lag too long', ['--out', at('synced'), '--lag', '60d'], /^--lag must be from 0 to 30d, not 60d$/],
  ['--interval without --follow', ['--out', at('synced'), '--interval', '10s'], /^--interval applies to --follow only$/],
  ['--interval too short', ['--out', at('synced'), '--follow', '--interval', '10ms'], /^--interval must be from 1s to 1d, not 10ms$/],
  ['--follow with --until', ['--out', at('synced'), '--follow', '--until', '2026-11-11'], /^--follow keeps up with now: give --until or --follow, not both$/],
  ['--concurrency 0', ['--out', at('synced'), '--concurrency', '0'], /^--concurrency must be from 1 to 32, not 0$/],
  ['--rescan-every unreadable', ['--out', at('synced'), '--rescan-every', 'often'], /^--rescan-every: 'often' is not a duration/],
];

describe.concurrent('swapx sync: bad input exits 2 before any request, the dir untouched', () => {
  it.each(CASES)('%s', async (_name, args, message) => {
    // Every path is absolute (under base): no cwd, so the in-process runs can share the process.
    const r = await runSwapx(['sync', ...args.map((arg) => (typeof arg === 'function' ? arg() : arg))], { env });
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n');
    expect(lines, r.stderr).toHaveLength(2);
    expect(lines[0]!.replace(/^swapx: error: /, '')).toMatch(message);
    expect(r.code).toBe(2);
    expect(fs.existsSync(path.join(base, 'fresh'))).toBe(false);
  });
});

describe('sync --help', () => {
  it('names every field --fields must include, as the check above asks for them', async () => {
    const r = await runSwapx(['sync', '--help'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--fields <list> +only these fields \(must include id,\s+completedAt\s+and\s+updatedAt\)\n/);
  });
});

describe('credentials', () => {
  it('a bad key exits 3 before creating the directory or its state: nothing is left behind', async () => {
    const own = await startSandbox({ port: 0 });
    try {
      const parent = tempDir('swapx-sync-key-');
      const out = path.join(parent, 'new', 'out');
      const r = await runSwapx(['sync', '--out', out, '--since', '1h'], {
        env: sandboxEnv(own.url, path.join(tempDir('swapx-cfg-'), 'cfg'), { SWAPX_API_KEY: 'wrong' }),
      });
      expect(r.code).toBe(3);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')).toHaveLength(2);
      expect(fs.readdirSync(parent)).toEqual([]);
      // The one request made: the credentials check.
      expect(own.stats().requests).toBe(1);
    } finally {
      await own.close();
    }
  });
});
