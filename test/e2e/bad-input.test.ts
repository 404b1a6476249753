/**
 * Every bad input: exit 2, one line on stderr naming the problem, no request
 * sent, no file written. The sandbox here serves nobody else, so its request
 * count must stay 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';

let sandbox: RunningSandbox;
let configDir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  configDir = path.join(tempDir(), 'cfg');
});
afterAll(async () => {
  expect(sandbox.stats().requests).toBe(0);
  await sandbox.close();
});

const R = ['--from', '2026-11-01', '--to', '2026-11-02'];

type Case = [name: string, args: string[], message: RegExp, input?: string];

const CASES: Case[] = [
  // global options
  ['timeout zero', ['--timeout', '0', 'chains'], /^--timeout must be a positive duration up to 1h, such as 30s or 2m, not '0'$/],
  ['timeout words', ['--timeout', 'fast', 'chains'], /^--timeout must be a positive duration .* not 'fast'$/],
  ['timeout huge', ['--timeout', '2h', 'chains'], /^--timeout must be a positive duration up to 1h.* not '2h'$/],
  ['timeout negative', ['--timeout', '-5s', 'chains'], /^--timeout must be a positive duration .* not '-5s'$/],
  ['retries negative', ['--retries', '-1', 'chains'], /^--retries must be a whole number from 0 to 100, not '-1'$/],
  ['retries words', ['--retries', 'many', 'chains'], /^--retries must be a whole number from 0 to 100, not 'many'$/],
  ['retries exponent', ['--retries', '1e3', 'chains'], /^--retries must be a whole number from 0 to 100, not '1e3'$/],
  ['retries huge', ['--retries', '99999999999999999999', 'chains'], /^--retries must be a whole number from 0 to 100/],
  ['base-url not a URL', ['--base-url', 'not a url', 'chains'], /^--base-url is not an http\(s\) URL: 'not a url'$/],
  ['base-url ftp', ['--base-url', 'ftp://example.com', 'chains'], /^--base-url is not an http\(s\) URL: 'ftp:\/\/example.com'$/],
  ['base-url empty', ['--base-url', '', 'chains'], /^--base-url is not an http\(s\) URL: ''$/],
  [
    'base-url plain http remote',
    ['--base-url', 'http://api.example.com', 'chains'],
    /^--base-url: refusing plain http to api\.example\.com: the API key would travel in clear text; use https:\/\/, or a loopback address, or for a test server set SWAPX_ALLOW_HTTP=1$/,
  ],
  [
    'base-url with credentials',
    ['--base-url', 'https://user:pw@example.com', 'chains'],
    /^--base-url must not contain credentials; use 'swapx auth login' or SWAPX_CLIENT_ID\/SWAPX_API_KEY$/,
  ],
  [
    'base-url unparsable with credentials',
    ['--base-url', 'https://user:s3cret@exa mple.com', 'chains'],
    /^--base-url is not an http\(s\) URL: 'https:\/\/\[REDACTED\]@exa mple\.com'$/,
  ],
  ['profile empty', ['--profile', '', 'chains'], /^--profile must be 1 to 64 letters, digits, '\.', '_' or '-', starting with a letter or digit, not ''$/],
  ['profile path', ['--profile', '../etc', 'chains'], /^--profile must be .* not '\.\.\/etc'$/],
  ['profile spaces', ['--profile', 'my profile', 'chains'], /^--profile must be .* not 'my profile'$/],
  [
    'secret flag',
    ['chains', '--api-key', 'hunter2'],
    /^--api-key is not accepted: a secret on the command line leaks into ps and shell history; use 'swapx auth login'/,
  ],
  ['secret flag with =', ['chains', '--api-key=hunter2'], /^--api-key is not accepted/],
  [
    'token flag',
    ['auth', 'login', '--token', 'abc'],
    /^--token is not accepted: .* use 'swapx auth login --token-stdin' or the SWAPX_TOKEN environment variable$/,
  ],
  ['unknown command', ['chainz'], /^unknown command 'chainz' \(Did you mean chains\?\)$/],
  ['unknown option', ['chains', '--bogus'], /^unknown option '--bogus'$/],
  ['extra argument', ['chains', 'extra'], /^too many arguments for 'chains'\. Expected 0 arguments but got 1\.$/],
  // output options
  ['format unknown', ['chains', '--format', 'xml'], /^--format: unknown format 'xml' \(use one of table, json, jsonl, csv, parquet\)$/],
  ['format empty', ['chains', '--format', ''], /^--format: unknown format '' \(use one of table, json, jsonl, csv, parquet\)$/],
  ['two shorthands', ['chains', '--json', '--csv'], /^choose one output format, not --json and --csv$/],
  ['format disagrees', ['chains', '--format', 'csv', '--json'], /^--format csv and --json disagree: give one$/],
  ['fields unknown', ['chains', '--fields', 'colour'], /^--fields: unknown field 'colour' \(known: blockchainId, name, explorerUrl\)$/],
  // issue 22.10: the nearest name, as for commands and options
  ['fields misspelt', ['swaps', ...R, '--fields', 'id,sourceChian'], /^--fields: unknown field 'sourceChian'; did you mean sourceChain\?$/],
  ['fields transposed', ['swaps', ...R, '--fields', 'brigdeKey'], /^--fields: unknown field 'brigdeKey'; did you mean bridgeKey\?$/],
  ['fields snake case', ['swaps', ...R, '--fields', 'source_chain'], /^--fields: unknown field 'source_chain'; did you mean sourceChain\?$/],
  [
    'fields only in swap',
    ['swaps', ...R, '--fields', 'id,balanceChanges'],
    /^--fields: balanceChanges is only in swapx swap: the list of swaps does not carry it$/,
  ],
  // issue 22.11: Parquet is refused the same way however it is asked for, and never sent round in a circle
  ['parquet format on chains', ['chains', '--format', 'parquet'], /^Parquet output is for swapx swaps and swapx sync; use json, jsonl or csv here$/],
  ['parquet file on chains', ['chains', '-o', 'c.parquet'], /^Parquet output is for swapx swaps and swapx sync; use json, jsonl or csv here$/],
  ['parquet format on swap', ['swap', '6ae6804ca1ceb0a431f6317d', '--format', 'parquet'], /^Parquet output is for swapx swaps and swapx sync/],
  ['fields empty', ['chains', '--fields', ''], /^--fields has an empty name in ''/],
  ['fields empty name', ['chains', '--fields', 'name,,blockchainId'], /^--fields has an empty name in 'name,,blockchainId'/],
  ['fields twice', ['chains', '--fields', 'name,name'], /^--fields names 'name' twice$/],
  ['output empty', ['chains', '-o', ''], /^--output needs a file name$/],
  ['excel-safe not csv', ['chains', '--excel-safe', '--json'], /^--excel-safe applies to CSV output only$/],
  // tokens
  ['take too big', ['tokens', 'ethereum', '--take', '1001'], /^--take must be from 0 to 1000, not 1001$/],
  ['take negative', ['tokens', 'ethereum', '--take', '-1'], /^--take must be from 0 to 1000, not -1$/],
  ['take fraction', ['tokens', 'ethereum', '--take', '1.5'], /^--take must be a whole number from 0 to 1000, not '1\.5'$/],
  ['take empty', ['tokens', 'ethereum', '--take', ''], /^--take must be a whole number from 0 to 1000, not ''$/],
  ['offset too big', ['tokens', 'ethereum', '--offset', '100001'], /^--offset must be from 0 to 100000, not 100001$/],
  ['offset words', ['tokens', 'ethereum', '--offset', 'ten'], /^--offset must be a whole number from 0 to 100000, not 'ten'$/],
  ['offset huge', ['tokens', 'ethereum', '--offset', '99999999999999999999'], /^--offset must be a whole number from 0 to 100000/],
  ['all with take', ['tokens', 'ethereum', '--all', '--take', '5'], /^--all pages with the largest page size: drop --take$/],
  ['chain with slash', ['tokens', 'a/b'], /^blockchainId contains '\/', which no identifier has: 'a\/b'$/],
  ['chain dot-dot', ['tokens', '..'], /^blockchainId cannot be '\.\.'$/],
  ['chain percent', ['tokens', 'eth%2F..'], /^blockchainId contains '%', which no identifier has/],
  ['chain empty', ['tokens', ''], /^blockchainId is empty$/],
  ['chain control', ['tokens', 'eth\u0007'], /^blockchainId contains a control character$/],
  ['chain missing', ['tokens'], /^tokens needs a chain: swapx tokens <blockchainId>, e\.g\. swapx tokens ethereum \('swapx chains' lists the ids\)$/],
  // swap
  ['id with space', ['swap', 'a b'], /^identifier contains white space: 'a b'$/],
  ['id traversal', ['swap', '../x'], /^identifier contains '\/', which no identifier has: '\.\.\/x'$/],
  ['id percent', ['swap', '%00'], /^identifier contains '%', which no identifier has: '%00'$/],
  ['id too long', ['swap', 'a'.repeat(300)], /^identifier is too long \(300 characters; at most 256\)$/],
  ['id escape', ['swap', '\u001b[31mred'], /^identifier contains a control character$/],
  ['id empty', ['swap', ''], /^identifier is empty$/],
  ['id query', ['swap', 'abc?x=1'], /^identifier contains '\?', which no identifier has: 'abc\?x=1'$/],
  ['id dot', ['swap', '.'], /^identifier cannot be '\.'$/],
  ['id backslash', ['swap', 'a\\b'], /^identifier contains '\\', which no identifier has/],
  // issue 22.2: a malformed identifier is refused before any request, saying what a hash and an id look like
  [
    'id 0x not hex',
    ['swap', '0xZZZ'],
    /^'0xZZZ' is not a transaction hash: an EVM hash is 0x and 64 hex digits \(this has 3 characters after 0x, not all hex digits\)$/,
  ],
  ['id 0x short', ['swap', '0x5f1c'], /^'0x5f1c' is not a transaction hash: an EVM hash is 0x and 64 hex digits \(this has 4 characters after 0x\)$/],
  ['id ellipsis', ['swap', '0x5f1c…e2a9'], /^'0x5f1c…e2a9' is not a transaction hash: an EVM hash is 0x and 64 hex digits/],
  [
    'id too short',
    ['swap', 'ZZZ'],
    /^'ZZZ' is not a transaction hash or a swap id: an EVM transaction hash is 0x and 64 hex digits; other chains’ hashes are 64 hex digits or base58; a swap id is 8 to 128 letters, digits, - or _ \(such as 6ae6804ca1ceb0a431f6317d\)$/,
  ],
  ['id punctuation', ['swap', 'abc:defgh!'], /^'abc:defgh!' is not a transaction hash or a swap id: /],
  // swaps
  ['no range', ['swaps'], /^give a range: --from <time> --to <time>, or --last <duration>$/],
  ['no from', ['swaps', '--to', '2026-11-02'], /^--from is missing \(the range is --from <time> --to <time>\)$/],
  [
    'from unreadable',
    ['swaps', '--from', 'last tuesday', '--to', '2026-11-02'],
    /^--from: cannot read 'last tuesday' as a time; use an ISO 8601 date or date-time .*now, today, yesterday, or a duration before now such as 90m, 6h, 7d, 2w$/,
  ],
  ['to unreadable', ['swaps', '--from', '2026-11-01', '--to', 'soon'], /^--to: cannot read 'soon' as a time; use /],
  ['impossible date', ['swaps', '--from', '2026-02-30', '--to', '2026-03-02'], /^--from: cannot read '2026-02-30' as a time/],
  ['to before from', ['swaps', '--from', '2026-11-02', '--to', '2026-11-01'], /^--to \(2026-11-01T00:00:00Z\) must be after --from \(2026-11-02T00:00:00Z\)$/],
  ['to equals from', ['swaps', '--from', '2026-11-02', '--to', '2026-11-02'], /^--to \(2026-11-02T00:00:00Z\) must be after --from/],
  ['from in the future', ['swaps', '--from', '2099-01-01', '--to', '2099-01-02'], /^--from 2099-01-01T00:00:00Z is in the future$/],
  ['window too short', ['swaps', ...R, '--window', '30s'], /^--window must be from 1m to 30m, not 30s$/],
  ['window too long', ['swaps', ...R, '--window', '31m'], /^--window must be from 1m to 30m, not 31m$/],
  ['window words', ['swaps', ...R, '--window', 'half an hour'], /^--window: 'half an hour' is not a duration/],
  // issue 22.13: one grammar, errors with one pair of brackets at most (issue 33: a range's bare number needs a unit)
  ['window zero', ['swaps', ...R, '--window', '0'], /^--window must be from 1m to 30m, not 0$/],
  ['last bare', ['swaps', '--last', '7'], /^--last: '7' has no unit, and a range needs one: 7d for 7 days, 7h for 7 hours \(units: ms, s, m, h, d, w\)$/],
  [
    'last words, the grammar said once',
    ['swaps', '--last', '24 hours'],
    /^--last: '24 hours' is not a duration: use a number with a unit, ms, s, m, h, d or w, such as 500ms, 30s, 90m, 6h, 7d or 1h30m$/,
  ],
  ['concurrency zero', ['swaps', ...R, '--concurrency', '0'], /^--concurrency must be from 1 to 32, not 0$/],
  ['concurrency 33', ['swaps', ...R, '--concurrency', '33'], /^--concurrency must be from 1 to 32, not 33$/],
  ['concurrency words', ['swaps', ...R, '--concurrency', 'max'], /^--concurrency must be a whole number from 1 to 32, not 'max'$/],
  ['filter unknown', ['swaps', ...R, '--filter', 'Created'], /^unknown filter 'Created' \(use one of Withdrawn, Deposited, Completed, Updated\)$/],
  ['resume without -o', ['swaps', ...R, '--resume'], /^--resume needs -o FILE: only a file export can be resumed$/],
  ['resume and force', ['swaps', ...R, '--resume', '--force', '-o', 'x.csv'], /^--resume continues an unfinished export and --force discards it: give one$/],
  ['last with from', ['swaps', '--last', '24h', '--from', '2026-11-01'], /^--last covers the range ending now: give either --last or --from\/--to$/],
  ['last unreadable', ['swaps', '--last', 'a day'], /^--last: 'a day' is not a duration/],
  ['last zero', ['swaps', '--last', '0m'], /^--last must be longer than 0, not '0m'$/],
  ['rps zero', ['swaps', ...R, '--rps', '0'], /^--rps must be a positive number of requests per second, not '0'$/],
  ['rps words', ['swaps', ...R, '--rps', 'fast'], /^--rps must be a positive number/],
  ['swaps bad field', ['swaps', ...R, '--fields', 'id,amount'], /^--fields: unknown field 'amount' \(known: id, timestamp, /],
  // auth and config
  ['api-key-stdin without id', ['auth', 'login', '--api-key-stdin'], /^--api-key-stdin needs --client-id <id>$/, 'key'],
  [
    'client id with colon',
    ['auth', 'login', '--client-id', 'a:b', '--api-key-stdin'],
    /^a client id cannot contain ':' \(Basic auth joins id and key with it\)$/,
    'key',
  ],
  [
    'token with client id',
    ['auth', 'login', '--token-stdin', '--client-id', 'x'],
    /^--token-stdin is for a Bearer token: drop --client-id and --api-key-stdin$/,
    'tok',
  ],
  ['empty stdin key', ['auth', 'login', '--client-id', 'x', '--api-key-stdin'], /^standard input held no API key$/, ''],
  ['two-line stdin key', ['auth', 'login', '--client-id', 'x', '--api-key-stdin'], /^standard input held more than one line; give only the API key$/, 'a\nb\n'],
  ['config unknown key', ['config', 'set', 'colour', 'red'], /^unknown setting 'colour' \(known: base-url, format, concurrency, timeout, retries\)$/],
  ['config bad timeout', ['config', 'set', 'timeout', '0'], /^timeout must be a positive duration up to 1h, such as 30s or 2m, not '0'$/],
  ['config bad retries', ['config', 'set', 'retries', 'lots'], /^retries must be a whole number from 0 to 100, not 'lots'$/],
  ['config get missing key', ['config', 'get'], /^missing required argument 'key'$/],
  ['config unset unknown', ['config', 'unset', 'token'], /^unknown setting 'token'/],
  // sandbox
  ['sandbox port', ['sandbox', '--port', '70000'], /^--port must be from 0 to 65535, not 70000$/],
  ['sandbox fault rate', ['sandbox', '--fault-rate', '2'], /^--fault-rate must be a number from 0 to 1, not '2'$/],
  ['sandbox late-by', ['sandbox', '--late-by', 'soon'], /^--late-by: 'soon' is not a duration/],
  ['sandbox now', ['sandbox', '--now', 'whenever'], /^--now: cannot read 'whenever' as a time/],
  ['sandbox client', ['sandbox', '--client', 'nocolon'], /^--client must be id:key, not 'nocolon'$/],
];

// One at a time: each run changes into its own working directory.
describe('bad input: exit 2, one line, no request, no file', () => {
  it('has at least 60 cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60);
  });
  it.each(CASES)('%s', async (_name, args, message, input) => {
    const cwd = tempDir('swapx-bad-');
    const r = await runSwapx(args, { env: sandboxEnv(sandbox.url, configDir), cwd, input });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('');
    expect(lines[0]!.replace(/^swapx: (error: )?/, '')).toMatch(message);
    expect(fs.readdirSync(cwd)).toEqual([]);
    expect(fs.existsSync(configDir)).toBe(false);
  });
});
