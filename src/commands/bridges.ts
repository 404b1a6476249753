/** `swapx bridges [--include-delisted]`: GET /v1/external/bridges */
import { BRIDGE_FIELDS, type Bridge } from '../api/types.js';
import type { Register } from '../cli/command.js';
import type { Context } from '../cli/context.js';
import { addOutputOptions, planOutput, writeResult, type OutputFlags } from '../cli/output.js';
import { compactUsd, humanTime, renderTable } from '../output/table.js';
import { fieldColumns, tableWidth } from './columns.js';

interface BridgesFlags extends OutputFlags {
  includeDelisted?: boolean;
}

/** The default table view: what people compare bridges by. */
const TABLE_FIELDS = ['name', 'key', 'status', 'allTimeSwapsVolume', 'allTimeSwapsCount', 'latestSwapTimestamp', 'supportedChains'];

export const register: Register = (program, run) => {
  addOutputOptions(program.command('bridges').description('list the bridges the API tracks, by volume'))
    .option('--include-delisted', 'include bridges delisted for inactivity')
    .addHelpText('after', '\nExamples:\n  swapx bridges\n  swapx bridges --include-delisted --json')
    .action((flags: BridgesFlags) => run((ctx) => bridges(ctx, flags)));
};

export async function bridges(ctx: Context, flags: BridgesFlags): Promise<number> {
  const plan = planOutput(ctx, flags, BRIDGE_FIELDS);
  const rows = await ctx.client().listBridges({ includeDelisted: flags.includeDelisted === true });
  const c = ctx.out;
  const statusColor: Record<string, (text: string) => string> = { Operational: c.green, Warning: c.yellow, Malfunction: c.red };
  await writeResult(ctx, plan, rows, BRIDGE_FIELDS, (records, fields) =>
    renderTable(
      fieldColumns<Bridge>(
        flags.fields ? fields : TABLE_FIELDS,
        {
          // What goes first on a narrow terminal: the chains, then the key (the name says which bridge), then the count.
          name: { value: (b) => `${b.name ?? '—'}${b.delisted ? ' (delisted)' : ''}`, truncate: 'never', required: true },
          key: { priority: -5 },
          status: { style: (padded, raw) => (statusColor[raw] ?? ((t: string) => t))(padded), truncate: 'never', priority: -1 },
          allTimeSwapsVolume: { header: 'volume', value: (b) => compactUsd(b.allTimeSwapsVolume) || '—', align: 'right', truncate: 'never', priority: -2 },
          // null is "not known", which is not 0 swaps
          allTimeSwapsCount: {
            header: 'swaps',
            value: (b) => (typeof b.allTimeSwapsCount === 'number' ? b.allTimeSwapsCount.toLocaleString('en-US') : '—'),
            align: 'right',
            truncate: 'never',
            priority: -4,
          },
          latestSwapTimestamp: { header: 'latest swap', value: (b) => humanTime(b.latestSwapTimestamp), truncate: 'never', priority: -3 },
          earliestSwapTimestamp: { value: (b) => humanTime(b.earliestSwapTimestamp), truncate: 'never' },
          supportedChains: { header: 'chains', value: (b) => (b.supportedChains ?? []).join(','), minWidth: 20, priority: -10 },
        },
        flags.fields !== undefined,
      ),
      records,
      { header: c.bold, maxWidth: tableWidth(ctx, plan) },
    ),
  );
  return 0;
}
