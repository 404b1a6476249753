/**
 * The output options of CLI.md, shared by every command that prints data:
 * checked before any request, then used to write the result to stdout or
 * atomically to -o FILE.
 */
import type { Command } from 'commander';
import { UsageError, WrappedError } from '../api/errors.js';
import { encodeAll, type MachineFormat } from '../output/encode.js';
import { writeFileAtomic } from '../fs/atomic-file.js';
import { outputTarget } from '../fs/output-target.js';
import { selectFields } from '../output/fields.js';
import { terminalSafe } from '../output/sanitize.js';
import { formatFromPath, resolveFormat, STDOUT_NAME, type Format, type FormatFlags } from '../output/format.js';
import type { Context } from './context.js';
import { fsReason } from './exit-codes.js';

export interface OutputFlags extends FormatFlags {
  fields?: string;
  excelSafe?: boolean;
}

/** `parquet`: the command writes Parquet (swaps); its help offers each format only where it works. */
export function addOutputOptions(command: Command, options: { parquet?: boolean } = {}): Command {
  const formats = options.parquet ? 'table, json, jsonl, csv, or parquet (to a file)' : 'table, json, jsonl or csv';
  const extensions = options.parquet ? '.json/.jsonl/.ndjson/.csv/.parquet' : '.json/.jsonl/.ndjson/.csv';
  return command
    .option('-f, --format <format>', `${formats} (default: table on a terminal, jsonl otherwise)`)
    .option('--json', 'shorthand for --format json')
    .option('--jsonl', 'shorthand for --format jsonl')
    .option('--csv', 'shorthand for --format csv')
    .option('--fields <list>', 'only these fields, in this order (comma-separated)')
    .option('-o, --output <file>', `write to a file (atomically); format from ${extensions}, .gz gzips; - is stdout`)
    .option('--excel-safe', 'CSV: prefix cells starting with = + - @ with a quote so spreadsheets do not run them');
}

export interface OutputPlan {
  format: Format;
  gzip: boolean;
  fields: string[];
  output: string | undefined;
  excelSafe: boolean;
}

/**
 * Checks the output options; throws UsageError before any request is sent.
 * `parquet`: the command can write Parquet (swaps); elsewhere it is a usage error.
 */
export function planOutput(ctx: Context, flags: OutputFlags, allFields: readonly string[], options: { parquet?: boolean } = {}): OutputPlan {
  if (flags.output !== undefined && flags.output.trim() === '') throw new UsageError('--output needs a file name');
  const { format, gzip } = resolveFormat(flags, {
    stdoutIsTTY: ctx.io.stdout.isTTY === true,
    configured: ctx.settings().format.value,
    parquet: options.parquet === true,
  });
  if (flags.excelSafe && format !== 'csv') throw new UsageError('--excel-safe applies to CSV output only');
  const fields = selectFields(flags.fields, allFields);
  // What is at -o FILE is looked at once, here, for every command: a device or a FIFO is refused, a link written through.
  const output = flags.output === STDOUT_NAME || flags.output === undefined ? undefined : outputTarget(flags.output);
  // Written through a link, the file is named by its own path from then on (a resume names it so): its name must say
  // what the link's says about gzip, which no flag can say.
  if (output !== undefined && output !== flags.output && formatFromPath(output).gzip !== gzip) {
    const [gz, plain] = gzip ? [flags.output!, output] : [output, flags.output!];
    throw new UsageError(
      `-o ${flags.output} is a symbolic link to ${output}, and only ${gz} ends in .gz: give a path whose name says whether ${plain} is gzipped`,
    );
  }
  return { format, gzip, fields, output, excelSafe: flags.excelSafe === true };
}

/** Writes a whole result: `table` renders for people, other formats encode the records as sent. */
export async function writeResult<T extends object>(
  ctx: Context,
  plan: OutputPlan,
  records: readonly T[],
  allFields: readonly string[],
  table: (records: readonly T[], fields: readonly string[]) => string,
): Promise<void> {
  let text: string;
  if (plan.format === 'table') text = table(records, plan.fields);
  else text = encodeAll(plan.format as MachineFormat, records, { fields: plan.fields, allFields, excelSafe: plan.excelSafe });
  if (!plan.output) {
    // A table is made terminal-safe cell by cell (and coloured); machine formats keep every byte unless shown.
    const shown = plan.format !== 'table' && (ctx.io.stdout as { isTTY?: boolean }).isTTY === true;
    // JSON read on a terminal is indented (as gh --json is); through a pipe it stays compact.
    if (shown && plan.format === 'json') text = `${JSON.stringify(JSON.parse(text), null, 2)}\n`;
    ctx.io.stdout.write(shown ? terminalSafe(text) : text);
    return;
  }
  try {
    await writeFileAtomic(plan.output, text, { gzip: plan.gzip });
  } catch (error) {
    // The user named FILE, not the temporary file beside it: say what cannot be written in their words (as messageFor words a file error).
    const reason = fsReason(error);
    throw reason ? new WrappedError(`${reason}: ${plan.output}`, { cause: error }) : error;
  }
}
