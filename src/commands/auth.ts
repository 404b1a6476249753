/** `swapx auth login|status|logout`: the credential store. Secrets come from a prompt, stdin or the environment, never argv. */
import type { Command } from 'commander';
import { AuthError, ConnectionError, PermissionDeniedError, UsageError, WrappedError } from '../api/errors.js';
import { maskSecret, type Credentials } from '../api/credentials.js';
import type { Register, Run } from '../cli/command.js';
import type { Context } from '../cli/context.js';
import { promptHidden, promptVisible, readAllStdin } from '../cli/prompt.js';
import { loginHint, unsendableCredentials } from '../config/credentials.js';
import { renderPairs, renderTable } from '../output/table.js';
import { exitCodeFor, messageFor } from '../cli/exit-codes.js';

interface LoginFlags {
  clientId?: string;
  apiKeyStdin?: boolean;
  tokenStdin?: boolean;
  verify?: boolean;
}

export const register: Register = (program: Command, run: Run) => {
  const auth = program.command('auth').description('manage the credentials swapx sends');
  auth
    .command('login')
    .description('store credentials in the profile (prompts with hidden input on a terminal)')
    .option('--client-id <id>', 'the client id (Basic auth); the API key is read from the prompt or stdin')
    .option('--api-key-stdin', 'read the API key from standard input')
    .option('--token-stdin', 'read a Bearer token (JWT) from standard input instead')
    .option('--no-verify', 'store without checking the credentials against the API')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  swapx auth login',
        '  printf %s "$XFLOW_KEY" | swapx auth login --client-id acme --api-key-stdin',
        '  swapx auth login --token-stdin < token.jwt',
        '',
        'With --base-url, the profile keeps that API address for the commands that use',
        'it. With --profile NAME, that profile is made or replaced.',
      ].join('\n'),
    )
    .action((flags: LoginFlags) => run((ctx) => login(ctx, flags)));
  auth
    .command('status')
    .description('show which credentials would be used and from where, and check them against the API')
    .option('--json', 'print the facts and the check as one JSON object')
    .action((flags: { json?: boolean }) => run((ctx) => status(ctx, flags)));
  auth
    .command('logout')
    .description("forget the profile's stored credentials (a profile left empty is removed)")
    .action(() => run((ctx) => logout(ctx)));
  auth
    .command('list')
    .description('list the stored profiles, their credentials (masked) and settings')
    .option('--json', 'print one JSON array')
    .action((flags: { json?: boolean }) => run((ctx) => list(ctx, flags)));
};

async function readCredentials(ctx: Context, flags: LoginFlags): Promise<Credentials> {
  const { stdin, stderr } = ctx.io;
  if (flags.tokenStdin && (flags.apiKeyStdin || flags.clientId))
    throw new UsageError('--token-stdin is for a Bearer token: drop --client-id and --api-key-stdin');
  // On a terminal, "standard input" is the keyboard: ask without echo rather than show the secret as it is typed.
  const secret = async (what: string) => {
    if (stdin.isTTY !== true) return readAllStdin(stdin, what);
    const value = await promptHidden(stdin, stderr, `${what[0]!.toUpperCase()}${what.slice(1)} (hidden): `);
    if (value === '') throw new UsageError(`no ${what} was entered`);
    return value;
  };
  if (flags.tokenStdin) {
    const token: Credentials = { kind: 'bearer', token: await secret('token') };
    // Stored, it would fail every later run; checked, it would fail as a 'connection' error.
    const unsendable = unsendableCredentials(token);
    if (unsendable) throw new UsageError(`the token ${unsendable.why}`);
    return token;
  }
  if (flags.apiKeyStdin) {
    if (!flags.clientId) throw new UsageError('--api-key-stdin needs --client-id <id>');
    return { kind: 'basic', clientId: checkClientId(flags.clientId), apiKey: await secret('API key') };
  }
  if (stdin.isTTY !== true) {
    throw new UsageError('standard input is not a terminal, so swapx cannot prompt: use --client-id <id> --api-key-stdin, or --token-stdin');
  }
  const clientId = checkClientId(flags.clientId ?? (await promptVisible(stdin, stderr, 'Client id: ')));
  const apiKey = await promptHidden(stdin, stderr, 'API key (hidden): ');
  if (apiKey === '') throw new UsageError('no API key was entered');
  return { kind: 'basic', clientId, apiKey };
}

function checkClientId(clientId: string): string {
  const id = clientId.trim();
  if (id === '') throw new UsageError('the client id is empty');
  if (id.includes(':')) throw new UsageError("a client id cannot contain ':' (Basic auth joins id and key with it)");
  if (/[\u0000-\u001f\u007f]/.test(id)) throw new UsageError('the client id contains a control character');
  return id;
}

async function login(ctx: Context, flags: LoginFlags): Promise<number> {
  const settings = ctx.settings({ newProfile: true });
  const credentials = await readCredentials(ctx, flags);
  if (flags.verify !== false) {
    // Like gh: credentials the API rejects are not stored.
    try {
      await ctx.clientFor(credentials).listChains();
    } catch (error) {
      // A login that cannot reach the default API (a timeout is a ConnectionError too) is most often meant for another one.
      if (error instanceof ConnectionError && settings.baseUrl.source === 'default') {
        throw new WrappedError(
          `cannot reach the default API, ${settings.baseUrl.value} (${messageFor(error)}); nothing was stored: for another API, give --base-url URL (kept in the profile) or set SWAPX_BASE_URL`,
          { cause: error },
        );
      }
      if (!(error instanceof PermissionDeniedError) || error.isUnconfirmed) throw error;
      const why = error.body?.detail ?? error.body?.title;
      const which = credentials.kind === 'basic' ? `client id '${credentials.clientId}' and this API key` : 'this token';
      throw new AuthError(
        `the API refused ${which} (HTTP ${error.status}${typeof why === 'string' ? `: ${why.replace(/\.$/, '')}` : ''}); nothing was stored: check both and log in again`,
        { cause: error },
      );
    }
  }
  // --base-url named the API these credentials belong to (and were checked against): the profile keeps it.
  const baseUrl = settings.baseUrl.source === 'flag' ? settings.baseUrl.value : undefined;
  ctx.store.saveCredentials(ctx.profile, credentials, baseUrl === undefined ? {} : { 'base-url': baseUrl });
  const who = credentials.kind === 'basic' ? `client '${credentials.clientId}'` : 'a Bearer token';
  ctx.info(`Stored ${who}${baseUrl === undefined ? '' : ` for ${baseUrl}`} in profile '${ctx.profile}' (${ctx.store.file})`);
  return 0;
}

interface StatusFacts {
  profile: string;
  source: 'env' | 'profile';
  from: string;
  scheme: 'Basic' | 'Bearer';
  clientId?: string;
  apiKey?: string;
  token?: string;
  baseUrl: string;
  baseUrlSource: string;
  check: { ok: boolean; message: string };
}

/** What is known locally comes first and always shows; the live check may fail after it (exit 3 rejected, 1 unreachable). */
async function status(ctx: Context, flags: { json?: boolean }): Promise<number> {
  const settings = ctx.settings();
  const resolved = ctx.credentials();
  if (!resolved) {
    // What is known still shows (which profile, which API); the hint says how to add credentials.
    const none = {
      profile: ctx.profile,
      source: null,
      baseUrl: settings.baseUrl.value,
      baseUrlSource: settings.baseUrl.source,
      check: { ok: false, message: 'no credentials' },
    };
    if (flags.json) ctx.io.stdout.write(`${JSON.stringify(none, null, 2)}\n`);
    else {
      const where = settings.baseUrl.source === 'profile' ? `profile '${ctx.profile}'` : settings.baseUrl.source;
      ctx.io.stdout.write(
        renderPairs(
          [
            ['profile', ctx.profile],
            ['credentials', 'none'],
            ['base URL', `${settings.baseUrl.value} (${where})`],
          ],
          (label) => ctx.out.dim(label),
        ),
      );
    }
    throw new AuthError(loginHint(ctx.profile, ctx.profileFrom === '--profile'));
  }
  const { credentials } = resolved;
  const facts: StatusFacts = {
    profile: ctx.profile,
    source: resolved.source,
    from: resolved.origin,
    scheme: credentials.kind === 'basic' ? 'Basic' : 'Bearer',
    ...(credentials.kind === 'basic' ? { clientId: credentials.clientId, apiKey: maskSecret(credentials.apiKey) } : { token: maskSecret(credentials.token) }),
    baseUrl: settings.baseUrl.value,
    baseUrlSource: settings.baseUrl.source,
    check: { ok: true, message: 'accepted by the API' },
  };
  let code = 0;
  try {
    await ctx.client().listChains();
  } catch (error) {
    code = exitCodeFor(error);
    if (code === 130) throw error;
    const message =
      error instanceof PermissionDeniedError
        ? error.isUnconfirmed
          ? 'rejected: the account is not confirmed yet'
          : `rejected (HTTP ${error.status})`
        : `not done: ${messageFor(error)}`;
    facts.check = { ok: false, message };
  }
  if (flags.json) {
    ctx.io.stdout.write(`${JSON.stringify(facts, null, 2)}\n`);
    return code;
  }
  const pairs: [string, string][] = [];
  // Credentials from the environment do not come from the profile: naming it there would mislead.
  if (resolved.source === 'profile') pairs.push(['profile', ctx.profile]);
  pairs.push(['credentials', resolved.origin], ['scheme', facts.scheme]);
  if (facts.clientId !== undefined) pairs.push(['client id', facts.clientId], ['API key', facts.apiKey!]);
  else pairs.push(['token', facts.token!]);
  pairs.push(['base URL', `${facts.baseUrl} (${facts.baseUrlSource === 'profile' ? `profile '${ctx.profile}'` : facts.baseUrlSource})`]);
  pairs.push(['check', facts.check.ok ? ctx.out.green(facts.check.message) : ctx.out.red(facts.check.message)]);
  ctx.io.stdout.write(renderPairs(pairs, (label) => ctx.out.dim(label)));
  return code;
}

async function logout(ctx: Context): Promise<number> {
  const had = ctx.store.forgetCredentials(ctx.profile);
  ctx.info(had ? `Removed the credentials of profile '${ctx.profile}'` : `Profile '${ctx.profile}' had no stored credentials`);
  if (ctx.io.env.SWAPX_CLIENT_ID || ctx.io.env.SWAPX_API_KEY || ctx.io.env.SWAPX_TOKEN) {
    ctx.warn('credentials in the environment (SWAPX_CLIENT_ID/SWAPX_API_KEY/SWAPX_TOKEN) still apply');
  }
  return 0;
}

async function list(ctx: Context, flags: { json?: boolean }): Promise<number> {
  const rows = ctx.store.profileNames().map((name) => {
    const stored = ctx.store.storedCredentials(name);
    const credentials = !stored ? 'none' : stored.kind === 'basic' ? `Basic, client '${stored.clientId}'` : 'Bearer token';
    const settings = Object.entries(ctx.store.profile(name).settings ?? {}).map(([key, value]) => `${key}=${value}`);
    return { name, active: name === ctx.profile, credentials, settings };
  });
  if (flags.json) {
    ctx.io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  if (rows.length === 0) {
    ctx.info(`No stored profiles in ${ctx.store.file}: 'swapx auth login' (or 'swapx config set') creates one`);
    return 0;
  }
  ctx.io.stdout.write(
    renderTable(
      [
        { header: 'profile', value: (r: (typeof rows)[number]) => `${r.active ? '* ' : '  '}${r.name}` },
        { header: 'credentials', value: (r) => r.credentials },
        { header: 'settings', value: (r) => r.settings.join(', ') || '—' },
      ],
      rows,
      { header: ctx.out.bold },
    ),
  );
  return 0;
}
