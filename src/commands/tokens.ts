/** `swapx tokens <blockchainId> [--take] [--offset] [--all]`: GET /v1/external/chains/{id}/tokens */
import { NotFoundError, UsageError } from '../api/errors.js';
import { NoMatchError } from '../cli/errors.js';
import { type Chain, OFFSET_MAX, TAKE_MAX, TOKEN_FIELDS, type Token, type TokenPage } from '../api/types.js';
import { parseIntInRange } from '../api/bounds.js';
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
}

/** A contract is what people copy from this table: whole, and kept over the name and the link. */
const TOKEN_COLUMNS = { contract: { truncate: 'never', priority: 1 }, name: { minWidth: 12 } } as const;

export const register: Register = (program, run) => {
  addOutputOptions(program.command('tokens').description('list the tokens tracked on one chain (paged)'))
    .argument('<blockchainId>', "a chain's blockchainId, as 'swapx chains' lists them")
    .option('--take <n>', `tokens per page, 0 to ${TAKE_MAX} (server default when omitted)`)
    .option('--offset <n>', `tokens to skip, 0 to ${OFFSET_MAX}`)
    .option('--all', `page through every token (Take=${TAKE_MAX})`)
    .addHelpText('after', '\nExamples:\n  swapx tokens ethereum --take 20\n  swapx tokens ethereum --all --csv -o ethereum-tokens.csv')
    .action((blockchainId: string, flags: TokensFlags) => run((ctx) => tokens(ctx, blockchainId, flags)));
};

export async function tokens(ctx: Context, blockchainIdArg: string, flags: TokensFlags): Promise<number> {
  const blockchainId = checkPathIdentifier(blockchainIdArg, 'blockchainId');
  const take = parseIntInRange(flags.take, '--take', 0, TAKE_MAX);
  const offset = parseIntInRange(flags.offset, '--offset', 0, OFFSET_MAX);
  if (flags.all && take !== undefined) throw new UsageError('--all pages with the largest page size: drop --take');
  const plan = planOutput(ctx, flags, TOKEN_FIELDS);
  const client = ctx.client();
  let items: Token[];
  let page: TokenPage | undefined;
  try {
    if (flags.all) items = await allTokens(ctx, client, blockchainId, offset ?? 0);
    else {
      page = await client.listTokens(blockchainId, { take, offset });
      items = page.items ?? [];
    }
  } catch (error) {
    if (error instanceof NotFoundError) throw new NoMatchError(unknownChain(await chainsOrWrongBaseUrl(client, error), blockchainId), { cause: error });
    throw error;
  }
  if (!flags.all && page && items.length < page.totalCount - (offset ?? 0)) {
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

async function allTokens(ctx: Context, client: SwapxClient, blockchainId: string, start: number): Promise<Token[]> {
  const items: Token[] = [];
  let offset = start;
  for (;;) {
    const page = await client.listTokens(blockchainId, { take: TAKE_MAX, offset });
    const pageItems = page.items ?? [];
    items.push(...pageItems);
    offset += pageItems.length;
    if (offset >= page.totalCount) break;
    if (pageItems.length === 0) {
      // The API said there are more: stopping quietly would pass a short list off as all of them.
      ctx.warn(`${blockchainId}: the API reports ${page.totalCount} tokens but returned an empty page at offset ${offset}: listed ${items.length}`);
      break;
    }
    if (offset > OFFSET_MAX) {
      ctx.warn(
        `${blockchainId} has ${page.totalCount} tokens but the API pages only up to Offset ${OFFSET_MAX}: ${page.totalCount - offset} tokens cannot be listed`,
      );
      break;
    }
  }
  return items;
}

/** "unknown chain 'etherum'; did you mean ethereum?": the ids come from the API, as `swapx chains` shows them. */
function unknownChain(chains: readonly Chain[] | undefined, blockchainId: string): string {
  const ids = (chains ?? []).flatMap((chain) => (typeof chain.blockchainId === 'string' ? [chain.blockchainId] : []));
  const near = closest(blockchainId, ids);
  const hint = near.length ? `; did you mean ${near.join(' or ')}?` : '';
  return `unknown chain '${blockchainId}'${hint} ('swapx chains' lists the ids)`;
}
