/** `swapx tokens <blockchainId> [--take] [--offset] [--all] [--search]`: GET /v1/external/chains/{id}/tokens */
import { NotFoundError, UsageError } from '../api/errors.js';
import { NoMatchError } from '../cli/errors.js';
import { type Chain, OFFSET_MAX, TAKE_MAX, TOKEN_FIELDS, type Token, type TokenPage } from '../api/types.js';
import { parseIntInRange, parseRps } from '../cli/option-values.js';
import { checkPathIdentifier } from '../cli/args.js';
import { closest } from '../util/suggest.js';
import type { Register } from '../cli/command.js';
import type { Context } from '../cli/context.js';
import { addOutputOptions, planOutput, writeResult, type OutputFlags } from '../cli/output.js';
import { renderTable } from '../output/table.js';
import { fieldColumns, tableWidth } from './columns.js';
import { chainsOrWrongBaseUrl } from './not-found.js';
import type { SwapxClient } from '../api/client.js';

interface TokensFlags extends OutputFlags {
  take?: string;
  offset?: string;
  all?: boolean;
  search?: string;
  rps?: string;
}

/** A contract is what people copy from this table: whole, and kept over the name and the link. */
const TOKEN_COLUMNS = { contract: { truncate: 'never', priority: 1 }, name: { minWidth: 12 } } as const;

export const register: Register = (program, run) => {
  addOutputOptions(program.command('tokens').description('list the tokens tracked on one chain (paged), or find one'))
    // Optional to commander, so that a missing chain is answered with where the ids are (tokens below), not its own words.
    .argument('[blockchainId]', "a chain's blockchainId, as 'swapx chains' lists them")
    .usage('<blockchainId> [options]')
    .option('--take <n>', `tokens per page, 0 to ${TAKE_MAX} (server default when omitted)`)
    .option('--offset <n>', `tokens to skip, 0 to ${OFFSET_MAX}`)
    .option('--all', `page through every token (Take=${TAKE_MAX})`)
    .option('--search <text>', 'only the tokens whose symbol, name or contract contains this (any case); pages through every token')
    .option('--rps <n>', 'with --all or --search: at most this many requests per second')
    .addHelpText(
      'after',
      '\nExamples:\n  swapx tokens ethereum --take 20\n  swapx tokens ethereum --search usdc\n  swapx tokens ethereum --all --csv -o ethereum-tokens.csv',
    )
    .action((blockchainId: string | undefined, flags: TokensFlags) => run((ctx) => tokens(ctx, blockchainId, flags)));
};

export async function tokens(ctx: Context, blockchainIdArg: string | undefined, flags: TokensFlags): Promise<number> {
  if (blockchainIdArg === undefined)
    throw new UsageError("tokens needs a chain: swapx tokens <blockchainId>, e.g. swapx tokens ethereum ('swapx chains' lists the ids)");
  const blockchainId = checkPathIdentifier(blockchainIdArg, 'blockchainId');
  const take = parseIntInRange(flags.take, '--take', 0, TAKE_MAX);
  const offset = parseIntInRange(flags.offset, '--offset', 0, OFFSET_MAX);
  const search = flags.search?.trim();
  if (flags.search !== undefined && !search) throw new UsageError('--search needs text: a symbol, a name or a contract (or part of one)');
  const every = flags.all === true || search !== undefined;
  if (search !== undefined && (take !== undefined || offset !== undefined))
    throw new UsageError('--search looks through every token: drop --take and --offset');
  if (flags.all && take !== undefined) throw new UsageError('--all pages with the largest page size: drop --take');
  const rps = parseRps(flags.rps);
  if (rps !== undefined && !every) throw new UsageError('--rps paces --all and --search, which send many requests; one page is one request');
  const plan = planOutput(ctx, flags, TOKEN_FIELDS);
  const client = ctx.client({ requestsPerSecond: rps });
  let items: Token[];
  let page: TokenPage | undefined;
  try {
    if (every) items = await allTokens(ctx, client, blockchainId, offset ?? 0);
    else {
      page = await client.listTokens(blockchainId, { take, offset });
      items = page.items ?? [];
    }
  } catch (error) {
    if (error instanceof NotFoundError) throw new NoMatchError(unknownChain(await chainsOrWrongBaseUrl(client, error), blockchainId), { cause: error });
    throw error;
  }
  if (search !== undefined) {
    const found = matching(items, search);
    // An empty result is a success (exit 0), but a person is told why nothing is listed.
    if (found.length === 0)
      ctx.info(`no token of ${blockchainId} matches '${search}' (by symbol, name or contract, among ${items.length.toLocaleString('en-US')})`);
    items = found;
  }
  if (!every && page && items.length < page.totalCount - (offset ?? 0)) {
    const from = offset ? ` from offset ${offset}` : '';
    ctx.info(
      `Showing ${items.length.toLocaleString('en-US')} of ${page.totalCount.toLocaleString('en-US')} tokens${from}: --all lists every one; --take and --offset page`,
    );
  }
  await writeResult(ctx, plan, items, TOKEN_FIELDS, (records, fields) =>
    renderTable(fieldColumns<Token>(fields, TOKEN_COLUMNS, flags.fields !== undefined), records, { header: ctx.out.bold, maxWidth: tableWidth(ctx, plan) }),
  );
  return 0;
}

/**
 * The tokens whose symbol, name or contract contains `text`, any case; the API has no search, so this looks through
 * every token. Those whose symbol or contract is `text` itself come first (USDC before USDC.e), then the API's order.
 */
function matching(items: readonly Token[], text: string): Token[] {
  const wanted = text.toLowerCase();
  const rank = (token: Token): number => {
    const symbol = token.symbol?.toLowerCase();
    if (symbol === wanted || token.contract?.toLowerCase() === wanted) return 0;
    if (symbol?.startsWith(wanted)) return 1;
    return [token.symbol, token.name, token.contract].some((value) => value?.toLowerCase().includes(wanted)) ? 2 : 3;
  };
  return items
    .map((token, i) => ({ token, i, rank: rank(token) }))
    .filter((entry) => entry.rank < 3)
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((entry) => entry.token);
}

/**
 * Every token, page after page, trusting the server only so far: the first page's totalCount is where it stops, and so
 * is a short page (a server honours Take up to TAKE_MAX, so a shorter page is its last), a page it sent before (one that
 * ignores Offset), and Offset's bound. A token sent twice is listed once. A terminal shows the count as it goes.
 */
async function allTokens(ctx: Context, client: SwapxClient, blockchainId: string, start: number): Promise<Token[]> {
  const items: Token[] = [];
  const rows = new Set<string>();
  const pages = new Set<string>();
  let repeated = 0;
  let offset = start;
  let total: number | undefined;
  const shown = ctx.io.stderr.isTTY === true && !ctx.quiet;
  const show = (text: string) => {
    if (shown) ctx.io.stderr.write(`\r\u001b[2K${text}`);
  };
  const warn = (message: string) => {
    show('');
    ctx.warn(message);
  };
  try {
    for (;;) {
      const page = await client.listTokens(blockchainId, { take: TAKE_MAX, offset });
      const pageItems = page.items ?? [];
      total ??= page.totalCount;
      const seen = JSON.stringify(pageItems);
      if (pageItems.length > 0 && pages.has(seen)) {
        warn(`${blockchainId}: the API sent the same page again at offset ${offset}: stopped there, listed ${items.length} of ${total} tokens`);
        break;
      }
      pages.add(seen);
      for (const item of pageItems) {
        const row = JSON.stringify(item);
        if (rows.has(row)) repeated += 1;
        else {
          rows.add(row);
          items.push(item);
        }
      }
      offset += pageItems.length;
      show(`${blockchainId}: ${items.length.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} tokens…`);
      if (offset >= total) break;
      if (pageItems.length === 0) {
        // The API said there are more: stopping quietly would pass a short list off as all of them.
        warn(`${blockchainId}: the API reports ${total} tokens but returned an empty page at offset ${offset}: listed ${items.length}`);
        break;
      }
      if (pageItems.length < TAKE_MAX) {
        warn(
          `${blockchainId}: the API reports ${total} tokens but sent a page of ${pageItems.length} (of ${TAKE_MAX} asked) at offset ${offset - pageItems.length}, which ends the list: listed ${items.length}`,
        );
        break;
      }
      if (offset > OFFSET_MAX) {
        warn(`${blockchainId} has ${total} tokens but the API pages only up to Offset ${OFFSET_MAX}: ${total - offset} tokens cannot be listed`);
        break;
      }
    }
  } finally {
    show('');
  }
  if (repeated > 0) ctx.warn(`${blockchainId}: the API sent ${repeated} token(s) more than once across its pages: each is listed once`);
  return items;
}

/** "unknown chain 'etherum'; did you mean ethereum?": the ids come from the API, as `swapx chains` shows them. */
function unknownChain(chains: readonly Chain[] | undefined, blockchainId: string): string {
  const ids = (chains ?? []).flatMap((chain) => (typeof chain.blockchainId === 'string' ? [chain.blockchainId] : []));
  const near = closest(blockchainId, ids);
  const hint = near.length ? `; did you mean ${near.join(' or ')}?` : '';
  return `unknown chain '${blockchainId}'${hint} ('swapx chains' lists the ids)`;
}
