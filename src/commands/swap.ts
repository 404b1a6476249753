/** `swapx swap <identifier>`: GET /v1/external/swaps/{identifier} — support's "what happened to this tx?" */
import { NotFoundError } from '../api/errors.js';
import { NoMatchError } from '../cli/errors.js';
import { SWAP_FIELDS, type Swap } from '../api/types.js';
import { checkPathIdentifier } from '../cli/args.js';
import type { Register } from '../cli/command.js';
import type { Context } from '../cli/context.js';
import { hyperlinksEnabled } from '../cli/hyperlink.js';
import { addOutputOptions, planOutput, writeResult, type OutputFlags } from '../cli/output.js';
import { displayValue } from '../output/display.js';
import { renderPairs } from '../output/table.js';
import { formatDuration } from '../util/time.js';
import { tableWidth } from './columns.js';
import { explorersOf } from './explorers.js';
import { chainsOrWrongBaseUrl } from './not-found.js';
import { parseSwapIdentifier } from './swap-identifier.js';
import { swapDetail } from './swap-view.js';
import { waitDeadline, waitFor } from './swap-wait.js';

interface SwapFlags extends OutputFlags {
  wait?: boolean;
}

/** How long a found swap's card waits for the chain list (its links) still in flight. */
const LINKS_GRACE_MS = 3_000;

export const register: Register = (program, run) => {
  addOutputOptions(program.command('swap').description('look a swap up by transaction hash (either side) or swap id'))
    .argument('<identifier>', 'a source or destination transaction hash, or a swap id')
    .option('--wait', 'look until the swap appears (the API shows a swap once it has completed), up to --timeout (default: 10m)')
    .addHelpText(
      'after',
      [
        '',
        'Examples (both are in swapx sandbox):',
        '  swapx swap 0xf8e4184224dedd5d47090e3152b23159aa2804479961536b59e7da6c44fa7e1e',
        '  swapx swap 6ae6804ca1ceb0a431f6317d --json',
        '  swapx swap 6ae6804ca1ceb0a431f6317d --wait --timeout 15m',
        '',
        'An EVM hash is 0x and 64 hex digits (pasted without 0x,',
        'it is tried with it); other chains: 64 hex digits or',
        'base58. No match is exit 4.',
        '',
        'With --wait, --timeout is the wait’s deadline (each request keeps',
        'the profile’s timeout, 30s by default): looks back off from 2s to',
        '30s, and the deadline is exit 4.',
        '',
        'On a terminal each transaction links to its explorer; elsewhere',
        'the link’s address is shown.',
      ].join('\n'),
    )
    .action((identifier: string, flags: SwapFlags) => run((ctx) => swap(ctx, identifier, flags)));
};

export async function swap(ctx: Context, identifierArg: string, flags: SwapFlags): Promise<number> {
  const identifier = checkPathIdentifier(identifierArg, 'identifier');
  const { fallback } = parseSwapIdentifier(identifier);
  // Before the settings are read: with --wait, --timeout is the wait's deadline, not each request's.
  const waitMs = flags.wait ? waitDeadline(ctx.takeTimeoutFlag()) : undefined;
  const plan = planOutput(ctx, flags, SWAP_FIELDS);
  const client = ctx.client();
  // The card's links need the chain list: asked beside the lookup, not after it (explorersOf never rejects).
  const card = plan.format === 'table' && flags.fields === undefined;
  const giveUpChains = new AbortController();
  const explorers = card ? explorersOf(client, ctx.settings().baseUrl.value, ctx.io.env, ctx.now(), giveUpChains.signal) : undefined;
  const lookUp = async (text: string, signal?: AbortSignal): Promise<Swap[]> => {
    try {
      return await client.getSwaps(text, { signal });
    } catch (error) {
      // The spec answers [] for no match; a 404 says the same, unless the API is not where swapx asks.
      if (!(error instanceof NotFoundError)) throw error;
      await chainsOrWrongBaseUrl(client, error);
      return [];
    }
  };
  const look = async (signal?: AbortSignal) => {
    const found = await lookUp(identifier, signal);
    return found.length === 0 && fallback ? lookUp(fallback, signal) : found;
  };
  const swaps = waitMs === undefined ? await look() : await waitFor(ctx, waitMs, plan.output !== undefined, look);
  if (swaps.length === 0) {
    const asked = fallback ? `'${identifier}' or '${fallback}'` : `'${identifier}'`;
    const waited = waitMs === undefined ? '' : ` after waiting ${formatDuration(waitMs)}`;
    const why = waitMs === undefined ? '' : '; the API shows a swap once it has completed';
    throw new NoMatchError(`no swap matches ${asked}${waited} (looked up as a transaction hash and as a swap id${why})`);
  }
  // Hyperlinks only on a terminal that takes them (cli/hyperlink.ts); a file gets the addresses.
  const links = plan.output === undefined && hyperlinksEnabled(ctx.io.stdout, ctx.io.env) ? ('osc8' as const) : ('plain' as const);
  const cardLook = { c: ctx.out, width: tableWidth(ctx, plan), links };
  // The swap is in hand: its links get a few seconds more, then the card goes without them.
  const grace = setTimeout(() => giveUpChains.abort(), LINKS_GRACE_MS);
  const known = await explorers;
  clearTimeout(grace);
  // With --fields, a table shows exactly those fields, one `field  value` line each.
  const view = (s: Swap) =>
    flags.fields === undefined
      ? swapDetail(s, cardLook, known)
      : renderPairs(
          plan.fields.map((field) => [field, displayValue((s as unknown as Record<string, unknown>)[field]) || '—'] as const),
          (label) => ctx.out.dim(label),
        );
  await writeResult(ctx, plan, swaps, SWAP_FIELDS, (records) => records.map(view).join('\n'));
  return 0;
}
