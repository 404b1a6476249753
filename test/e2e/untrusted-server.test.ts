/**
 * What a server, a base URL or a config file can send swapx that the spec does not expect, and how it reaches
 * the terminal: each test states what the contract (CLI.md, the spec) asks for, against a small server of its
 * own. (They began as the failing tests of a review of the HTTP client.)
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { ONE_SWAP } from '../helpers/one-swap.js';
import { type Route, useRouteServer } from '../helpers/route-server.js';
import { runSwapx } from '../helpers/run.js';

const swap = ONE_SWAP;
const body = JSON.stringify([swap]);

const ROUTES: Record<string, Route> = {
  // A server whose clock runs 5 minutes ahead of ours asks, as an HTTP date, for a wait of 2 s by its clock.
  '/skewed-retry-after': (_q, res, n) => {
    const serverNow = Date.now() + 300_000;
    if (n === 1) res.writeHead(429, { date: new Date(serverNow).toUTCString(), 'retry-after': new Date(serverNow + 2000).toUTCString() }).end();
    else res.writeHead(200, { 'content-type': 'application/json', date: new Date(serverNow).toUTCString() }).end(body);
  },
  // Neither delay-seconds nor an HTTP date: RFC 9110 says ignore it; V8's lenient Date.parse reads it as the year 3000.
  '/garbage-retry-after': (_q, res, n) => {
    if (n === 1) res.writeHead(503, { 'retry-after': 'abc 3000' }).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  },
  // A canonical swap with an extra (unknown) field nested 20000 deep: valid JSON, which JSON.parse reads.
  '/deep': (_q, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(`[${body.slice(1, -2)},"extra":${'['.repeat(20_000)}${']'.repeat(20_000)}}]`),
  '/deep-spaced': (_q, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(`[${body.slice(1, -2)}, "extra":${'['.repeat(20_000)}${']'.repeat(20_000)}}]`),
  '/deep-error': (_q, res) =>
    res
      .writeHead(500, { 'content-type': 'application/problem+json' })
      .end(`{"title":"boom","detail":"deep","extra":${'['.repeat(20_000)}${']'.repeat(20_000)}}`),
  '/unprocessable': (_q, res) => res.writeHead(422, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ title: 'Unprocessable Entity' })),
  '/bidi': (_q, res) =>
    res.writeHead(500, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ title: 'boom', detail: 'abc\u202edcba\u2028next\u2029line' })),
  // 1e400 parses as Infinity: not a finite number.
  '/infinite': (_q, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(`[${body.slice(1, -1).replace('"depositAmount":1', '"depositAmount":1e400')}]`),
  // Servers that quote what they were sent: the credential comes back in the error body.
  '/echo-credential': (req, res) => {
    const authorization = req.headers.authorization ?? '';
    const secret = authorization.startsWith('Bearer ') ? authorization.slice(7) : Buffer.from(authorization.slice(6), 'base64').toString().split(':')[1];
    res
      .writeHead(req.url?.includes('/chains') ? 403 : 500, { 'content-type': 'application/problem+json' })
      .end(JSON.stringify({ title: 'Forbidden', detail: `credential '${secret}' (${authorization}) is not allowed here` }));
  },
  // A byte that is not UTF-8 (0xff) inside sourceToken: RFC 8259 JSON text is UTF-8, so this body is not JSON.
  '/not-utf8': (_q, res) =>
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(Buffer.concat([Buffer.from(body.slice(0, body.indexOf('"USDC"') + 3)), Buffer.from([0xff]), Buffer.from(body.slice(body.indexOf('"USDC"') + 3))])),
  // Dates that are not ISO 8601 date-times; V8's lenient Date.parse reads each as some instant (2001, local time, ...).
  '/not-iso-date': (req, res) => {
    const value = new URL(req.url ?? '', 'http://x').pathname.split('/')[2] ?? '';
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(`[${body.slice(1, -1).replace('"completedAt":"2026-11-01T00:02:00Z"', `"completedAt":${JSON.stringify(decodeURIComponent(value))}`)}]`);
  },
  // Lookups whose fields have the wrong types (the spec: strings or null).
  '/odd-lookups': (req, res) => {
    const url = req.url ?? '';
    if (url.includes('/tokens')) {
      if (url.includes('/chains/foo/')) return void res.writeHead(404, { 'content-type': 'application/problem+json' }).end('{"title":"Not Found"}');
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ items: [{ symbol: { x: 1 }, name: 5, contract: ['a'], url: true }], totalCount: 1 }));
    }
    if (url.includes('/bridges')) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ key: 5, name: { x: 1 } }]));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ blockchainId: { a: 1 }, name: ['x', 'y'], explorerUrl: 5 }]));
  },
  // A bridge from a serializer that leaves null fields out (as shape.ts allows for swaps): only the non-nullable ones.
  '/bridges-without-nulls': (_q, res) =>
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify([{ key: 'b', name: 'B', allTimeSwapsVolume: 12.5, status: 'Active', delisted: false }])),
  // A chain name that retitles the terminal and clears the screen.
  '/escapes': (_q, res) =>
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify([{ blockchainId: 'e', name: 'E\u001b]0;pwned\u0007\u001b[2J', explorerUrl: null }])),
  '/ok': (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'),
};

const served = useRouteServer(ROUTES);

const dir = tempDir();
const run = (route: string, args: string[], extra: Record<string, string | undefined> = {}, configDir = path.join(dir, 'cfg')) =>
  runSwapx(['--base-url', `${served.base}${route}`, ...args], { env: sandboxEnv('', configDir, { SWAPX_BASE_URL: undefined, ...extra }) });
const export1 = ['swaps', '--from', '2026-11-01T00:00:00Z', '--to', '2026-11-01T00:10:00Z', '--jsonl', '-q'];

describe('Retry-After', () => {
  it('an HTTP date is a wait by the server clock (its Date header), not ours', async () => {
    const r = await run('/skewed-retry-after', export1);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${body.slice(1, -1)}\n`);
    expect(served.counts['/skewed-retry-after']).toBe(2);
  });

  it('a value that is neither seconds nor an HTTP date is ignored: the ordinary backoff, then success', async () => {
    const r = await run('/garbage-retry-after', export1);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${body.slice(1, -1)}\n`);
  });
});

describe('a hostile body', () => {
  it.each([
    ['export, canonical element', '/deep', export1, 'swaps\\?From=2026-11-01T00%3A00%3A00Z&To=2026-11-01T00%3A10%3A00Z'],
    ['export, element with a space', '/deep-spaced', export1, 'swaps\\?From=2026-11-01T00%3A00%3A00Z&To=2026-11-01T00%3A10%3A00Z'],
    ['swap lookup', '/deep', ['swap', '6ae6804ca1ceb0a431f6317d', '--jsonl'], 'swaps/6ae6804ca1ceb0a431f6317d'],
  ])('%s: a swap nested deeper than the client can walk is a clear one-line error naming the request', async (_name, route, args, where) => {
    const r = await run(route, args);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toMatch(/Maximum call stack/);
    expect(r.stderr.trimEnd()).toMatch(new RegExp(`^swapx: error: .*\\(GET ${route}/v1/external/${where}\\)$`));
  });

  it('an error body nested deeper than the client walks is still a one-line error, not a stack overflow', async () => {
    const r = await run('/deep-error', ['chains', '--retries', '0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('swapx: error: server error HTTP 500 on GET /deep-error/v1/external/chains: boom: deep\n');
  });

  it('a 4xx other than the documented ones is not called a server error', async () => {
    const r = await run('/unprocessable', ['chains']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/HTTP 422/);
    expect(r.stderr).not.toMatch(/server error/);
  });

  it("a server's bidi override and line/paragraph separators do not reach the terminal", async () => {
    const r = await run('/bidi', ['chains', '--retries', '0']);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u2028\u2029]/);
    expect(r.stderr).toMatch(/^swapx: error: server error HTTP 500 on GET \/bidi\/v1\/external\/chains: boom: abc/);
  });
});

describe('a body that is not UTF-8', () => {
  it.each([
    ['swaps', export1],
    ['swap', ['swap', '6ae6804ca1ceb0a431f6317d', '--jsonl']],
  ])('%s: is refused, not written with U+FFFD in place of the byte', async (_name, args) => {
    const r = await run('/not-utf8', args);
    expect(r.stdout).not.toContain('\ufffd');
    expect(r.stdout).toBe('');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/GET \/not-utf8\/v1\/external\/swaps/);
  });
});

describe('a date that is not an ISO 8601 date-time', () => {
  it.each(['1', 'a 1', 'Nov 1 2026', 'Sun Nov 01 2026 00:02:00', '2026-02-30T00:02:00Z'])('completedAt %j is the wrong shape, not a row', async (value) => {
    const r = await run(`/not-iso-date/${encodeURIComponent(value)}`, export1);
    expect(r.stdout).toBe('');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the API sent data of the wrong shape: swap 0 completedAt is a string, expected an ISO 8601 date-time string/);
  });
});

describe('lookups with mistyped fields', () => {
  it.each([
    ['chains', ['chains', '--csv'], /chains 0 blockchainId/],
    ['tokens', ['tokens', 'ethereum', '--csv'], /tokens 0 symbol/],
    ['bridges', ['bridges', '--csv'], /bridges 0 key/],
  ])('%s: the wrong shape is an error, not a row with {"a":1} in it', async (_name, args, field) => {
    const r = await run('/odd-lookups', args);
    expect(r.stdout).toBe('');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^swapx: error: the API sent data of the wrong shape: /);
    expect(r.stderr).toMatch(field);
  });

  it('tokens for an unknown chain, when the chain list has a mistyped id: not a TypeError', async () => {
    const r = await run('/odd-lookups', ['tokens', 'foo']);
    expect(r.stderr).not.toMatch(/is not a function/);
    expect(r.stderr).toMatch(/^swapx: error: /);
  });
});

describe('lookups on a terminal', () => {
  it('bridges: a bridge without its nullable fields (nulls left out) is shown, not a TypeError', async () => {
    const r = await runSwapx(['--base-url', `${served.base}/bridges-without-nulls`, 'bridges'], {
      env: sandboxEnv('', path.join(dir, 'cfg'), { SWAPX_BASE_URL: undefined }),
      tty: { columns: 200 },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\bB\b/);
  });

  it('chains --csv to a terminal: a name from the server does not retitle it or clear it', async () => {
    const r = await runSwapx(['--base-url', `${served.base}/escapes`, 'chains', '--csv'], {
      env: sandboxEnv('', path.join(dir, 'cfg'), { SWAPX_BASE_URL: undefined }),
      tty: { columns: 120 },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).toMatch(/^blockchainId,name,explorerUrl\ne,/);
  });
});

describe('a number out of range', () => {
  it('is named for what it is: not "is a number, expected a number"', async () => {
    const r = await run('/infinite', export1);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/swap 0 depositAmount/);
    expect(r.stderr).not.toMatch(/is a number, expected a number/);
  });
});

describe('base URLs', () => {
  it.each([
    ['an @ inside the password', 'ftp://me:p@ss@host', '@ss'],
    ['no scheme, so no //', 'me:s3cret@api.example.com', 's3cret'],
  ])('a refused base URL with credentials in it (%s) never echoes them', async (_name, url, secret) => {
    const r = await runSwapx(['--base-url', url, 'chains'], { env: sandboxEnv('', path.join(dir, 'cfg'), { SWAPX_BASE_URL: undefined }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^swapx: error: --base-url /);
    expect(r.stderr).not.toContain(secret);
  });

  it('a base URL with a query (which swapx would silently drop from every request) is refused: exit 2, nothing sent', async () => {
    const before = served.counts['/ok'] ?? 0;
    const r = await runSwapx(['--base-url', `${served.base}/ok?subscription-key=abc`, 'chains'], {
      env: sandboxEnv('', path.join(dir, 'cfg'), { SWAPX_BASE_URL: undefined }),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^swapx: error: --base-url /);
    expect(served.counts['/ok'] ?? 0).toBe(before);
  });

  it('a *.localhost base URL is not taken for loopback (the DNS server may be asked for it): plain http is refused, nothing sent', async () => {
    // With "hosts: files dns" (no nss-myhostname) getaddrinfo asks the DNS server for it, which may answer with any address.
    const before = served.counts['/ok'] ?? 0;
    const port = served.port;
    const r = await runSwapx(['--base-url', `http://swapx-review.localhost:${port}/ok`, 'chains'], {
      env: sandboxEnv('', path.join(dir, 'cfg'), { SWAPX_BASE_URL: undefined }),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^swapx: error: --base-url: refusing plain http to swapx-review\.localhost:\d+/);
    expect(served.counts['/ok'] ?? 0).toBe(before);
  });
});

describe('a wrong base URL (every path 404, as behind a gateway with the wrong prefix)', () => {
  // The server answers 404 with no body for any route it does not know, /nowhere included: not the API.
  it.each([
    ['tokens', ['tokens', 'ethereum']],
    ['swap', ['swap', '6ae6804ca1ceb0a431f6317d']],
  ])('%s: exit 1 with a message, not exit 4 "no match" (a cron script reads 4 as "nothing found")', async (_name, args) => {
    const r = await run('/nowhere', args);
    expect(r.stderr).not.toMatch(/unknown chain|no swap matches/);
    expect(r.code).toBe(1);
  });
});

describe('credentials that cannot be sent', () => {
  const noBasic = { SWAPX_CLIENT_ID: undefined, SWAPX_API_KEY: undefined };

  it('a token from the environment that no HTTP header can carry: exit 3 naming SWAPX_TOKEN, nothing sent', async () => {
    const before = served.counts['/ok'] ?? 0;
    const r = await run('/ok', ['chains'], { ...noBasic, SWAPX_TOKEN: 'tök€n' });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^swapx: error: SWAPX_TOKEN /);
    expect(r.stderr).not.toMatch(/connection to/);
    expect(r.stderr).not.toContain('tök€n');
    expect(served.counts['/ok'] ?? 0).toBe(before);
  });

  it('a stored token with a newline in it: exit 3 naming the profile, not a connection failure', async () => {
    const cfg = tempDir();
    fs.writeFileSync(path.join(cfg, 'config.json'), JSON.stringify({ profiles: { default: { token: 'ab\ncd' } } }), { mode: 0o600 });
    const r = await run('/ok', ['chains'], noBasic, cfg);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/profile 'default'/);
    expect(r.stderr).not.toMatch(/connection to/);
  });

  it.each([
    ['checked', []],
    ['--no-verify', ['--no-verify']],
  ])('auth login (%s) refuses a token no HTTP header can carry: exit 2 or 3, nothing stored, nothing sent', async (_name, flags) => {
    const cfg = tempDir();
    const before = served.counts['/ok'] ?? 0;
    const r = await runSwapx(['--base-url', `${served.base}/ok`, 'auth', 'login', '--token-stdin', ...flags], {
      env: sandboxEnv('', cfg, { SWAPX_BASE_URL: undefined, ...noBasic }),
      input: 'tök€n',
    });
    expect([2, 3]).toContain(r.code);
    expect(r.stderr).not.toMatch(/connection to/);
    expect(fs.existsSync(path.join(cfg, 'config.json'))).toBe(false);
    expect(served.counts['/ok'] ?? 0).toBe(before);
  });

  it('a client id with a colon (which Basic cannot carry, RFC 7617): exit 3 naming SWAPX_CLIENT_ID, nothing sent', async () => {
    const before = served.counts['/ok'] ?? 0;
    const r = await run('/ok', ['chains'], { SWAPX_CLIENT_ID: 'team:one', SWAPX_API_KEY: 'key' });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^swapx: error: SWAPX_CLIENT_ID .*':'/);
    expect(served.counts['/ok'] ?? 0).toBe(before);
  });
});

describe('a credential the server echoes back', () => {
  it.each([
    [
      'Basic, a 403',
      { SWAPX_CLIENT_ID: 'team', SWAPX_API_KEY: 'k3y-very-secret-value' },
      ['chains'],
      ['k3y-very-secret-value', Buffer.from('team:k3y-very-secret-value').toString('base64')],
    ],
    [
      'Bearer, a 500',
      { SWAPX_CLIENT_ID: undefined, SWAPX_API_KEY: undefined, SWAPX_TOKEN: 'tok-very-secret-value' },
      ['bridges', '--retries', '0'],
      ['tok-very-secret-value'],
    ],
  ])('never reaches stderr (%s)', async (_name, env, args, secrets) => {
    const r = await run('/echo-credential', [...args, '-v'], env);
    expect(r.code).toBe(args[0] === 'chains' ? 3 : 1);
    expect(r.stderr).toMatch(/^GET \/echo-credential\/v1\/external\/\w+ (403|500) /);
    for (const secret of secrets) expect(r.stderr).not.toContain(secret);
  });
});

describe('a hand-edited config file', () => {
  it('a setting written as a JSON number is a usage error naming the setting, not a TypeError', async () => {
    const cfg = tempDir();
    fs.writeFileSync(path.join(cfg, 'config.json'), JSON.stringify({ profiles: { default: { settings: { timeout: 60 } } } }), { mode: 0o600 });
    const r = await run('/ok', ['chains'], {}, cfg);
    expect(r.stderr).not.toMatch(/is not a function/);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^swapx: error: .*timeout/);
  });
});
