/** `swapx chains`: GET /v1/external/chains */
import { CHAIN_FIELDS, type Chain } from '../api/types.js';
import { addOutputOptions, planOutput, writeResult, type OutputFlags } from '../cli/output.js';
import type { Context } from '../cli/context.js';
import type { Register } from '../cli/command.js';
import { renderTable } from '../output/table.js';
import { fieldColumns, tableWidth } from './columns.js';

export const register: Register = (program, run) => {
  addOutputOptions(program.command('chains').description('list the blockchains the API tracks'))
    .addHelpText('after', '\nExamples:\n  swapx chains\n  swapx chains --csv -o chains.csv')
    .action((flags: OutputFlags) => run((ctx) => chains(ctx, flags)));
};

export async function chains(ctx: Context, flags: OutputFlags): Promise<number> {
  const plan = planOutput(ctx, flags, CHAIN_FIELDS);
  const rows = await ctx.client().listChains();
  await writeResult(ctx, plan, rows, CHAIN_FIELDS, (records, fields) =>
    renderTable(fieldColumns<Chain>(fields, {}, flags.fields !== undefined), records, { header: ctx.out.bold, maxWidth: tableWidth(ctx, plan) }),
  );
  return 0;
}
