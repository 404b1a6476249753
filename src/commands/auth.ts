/** `swapx auth login|status|logout`: the credential store. Secrets come from a prompt, stdin or the environment, never argv. */
import type { Command } from 'commander';
import { AuthError, PermissionDeniedError, UsageError } from '../api/errors.js';
import { maskSecret, type Credentials } from '../api/credentials.js';
import type { Register, Run } from '../cli/command.js';
import type { Context } from '../cli/context.js';
import { promptHidden, promptVisible, readAllStdin } from '../cli/prompt.js';
import { loginHint } from '../config/credentials.js';
import { renderPairs } from '../output/table.js';

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
    .addHelpText('after', "\nExamples:\n  swapx auth login\n  printf %s \"$KEY\" | swapx auth login --client-id acme --api-key-stdin\n  swapx auth login --token-stdin < token.jwt")
    .action((flags: LoginFlags) => run((ctx) => login(ctx, flags)));
  auth
    .command('status')
    .description('show which credentials would be used and from where, and check them against the API')
    .action(() => run((ctx) => status(ctx)));
  auth
    .command('logout')
    .description("forget the profile's stored credentials")
    .action(() => run((ctx) => logout(ctx)));
};

async function readCredentials(ctx: Context, flags: LoginFlags): Promise<Credentials> {
  const { stdin, stderr } = ctx.io;
  if (flags.tokenStdin && (flags.apiKeyStdin || flags.clientId)) throw new UsageError('--token-stdin is for a Bearer token: drop --client-id and --api-key-stdin');
  if (flags.tokenStdin) return { kind: 'bearer', token: await readAllStdin(stdin, 'token') };
  if (flags.apiKeyStdin) {
    if (!flags.clientId) throw new UsageError('--api-key-stdin needs --client-id <id>');
    return { kind: 'basic', clientId: checkClientId(flags.clientId), apiKey: await readAllStdin(stdin, 'API key') };
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
  ctx.settings();
  const credentials = await readCredentials(ctx, flags);
  if (flags.verify !== false) {
    // Like gh: credentials the API rejects are not stored.
    await ctx.clientFor(credentials).listChains();
  }
  ctx.store.saveCredentials(ctx.profile, credentials);
  const who = credentials.kind === 'basic' ? `client '${credentials.clientId}'` : 'a Bearer token';
  ctx.info(`Stored ${who} in profile '${ctx.profile}' (${ctx.store.file})`);
  return 0;
}

async function status(ctx: Context): Promise<number> {
  const settings = ctx.settings();
  const resolved = ctx.credentials();
  if (!resolved) throw new AuthError(loginHint(ctx.profile));
  const { credentials } = resolved;
  const pairs: [string, string][] = [
    ['profile', ctx.profile],
    ['source', resolved.origin],
    ['scheme', credentials.kind === 'basic' ? 'Basic' : 'Bearer'],
  ];
  if (credentials.kind === 'basic') pairs.push(['client id', credentials.clientId], ['API key', maskSecret(credentials.apiKey)]);
  else pairs.push(['token', maskSecret(credentials.token)]);
  pairs.push(['base URL', `${settings.baseUrl.value} (${settings.baseUrl.source})`]);
  let code = 0;
  try {
    await ctx.client().listChains();
    pairs.push(['check', ctx.out.green('accepted by the API')]);
  } catch (error) {
    if (!(error instanceof PermissionDeniedError)) throw error;
    pairs.push(['check', ctx.out.red(error.isUnconfirmed ? 'rejected: the account is not confirmed yet' : `rejected (HTTP ${error.status})`)]);
    code = 3;
  }
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
