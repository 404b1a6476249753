/**
 * The output options of CLI.md, shared by every command that prints data:
 * checked before any request, then used to write the result to stdout or
 * atomically to -o FILE.
 */
import type { Command } from 'commander';
import { UsageError, WrappedError } from '../api/errors.js';
import { encodeAll } from '../output/encode.js';
import { writeFileAtomic } from '../fs/atomic-file.js';
import { isS3Url, outputTarget } from '../fs/output-target.js';
import { DEFAULT_CHOICE, formatFromPath } from '../formats/choose.js';
import { resolveFormat, STDOUT_NAME, type FormatFlags } from './format-choice.js';
import { FORMATS, type FormatName, formatOf, inLookups } from '../formats/registry.js';
import { selectFields } from './fields.js';
import { terminalSafe } from '../output/sanitize.js';
import { orList } from '../util/words.js';
import type { Context } from './context.js';
import { fsReason } from './exit-codes.js';

export interface OutputFlags extends FormatFlags {
  fields?: string;
  excelSafe?: boolean;
}

/** `export`: the command runs an export (swapx swaps), which writes every format; its help offers each format only where it works. */
export function addOutputOptions(command: Command, options: { export?: boolean } = {}): Command {
  const offered = FORMATS.filter((format) => options.export || inLookups(format));
  const streamed = offered.filter((format) => !format.fileOnly).map((format) => format.name);
  const toFile = offered.filter((format) => format.fileOnly).map((format) => `${format.name} (to a file)`);
  const formats = toFile.length > 0 ? `${streamed.join(', ')}, or ${toFile.join(', or ')}` : orList(streamed);
  const extensions = offered.flatMap((format) => format.extensions).join('/');
  const spreadsheets = FORMATS.filter((format) => format.spreadsheet).map((format) => format.title);
  command.option('-f, --format <format>', `${formats} (default: ${DEFAULT_CHOICE})`);
  for (const format of offered) if (format.shorthand) command.option(`--${format.name}`, `shorthand for --format ${format.name}`);
  return command
    .option('--fields <list>', 'only these fields, in this order (comma-separated)')
    .option(
      '-o, --output <file>',
      `write to a file (atomically)${options.export ? ' or an s3://BUCKET/KEY object (uploaded whole)' : ''}; format from ${extensions}, .gz gzips; - is stdout`,
    )
    .option('--excel-safe', `${spreadsheets.join('/')}: prefix cells starting with = + - @ with a quote so spreadsheets do not run them`);
}

export interface OutputPlan {
  format: FormatName;
  gzip: boolean;
  fields: string[];
  output: string | undefined;
  excelSafe: boolean;
}

/**
 * Checks the output options; throws UsageError before any request is sent.
 * `export`: the command runs an export (swapx swaps); elsewhere a format only an export writes (Parquet) is a usage error.
 */
export function planOutput(ctx: Context, flags: OutputFlags, allFields: readonly string[], options: { export?: boolean } = {}): OutputPlan {
  if (flags.output !== undefined && flags.output.trim() === '') throw new UsageError('--output needs a file name');
  // An object is uploaded by an export only (its URL read and checked by the command first: nothing of it repeated here).
  const object = flags.output !== undefined && isS3Url(flags.output);
  if (object && !options.export) throw new UsageError('-o: an s3:// object is written by swapx swaps; here, write a file (-o FILE) and upload it');
  const { format, gzip } = resolveFormat(flags, {
    stdoutIsTTY: ctx.io.stdout.isTTY === true,
    configured: ctx.settings().format.value,
    export: options.export === true,
  });
  if (flags.excelSafe && !formatOf(format).spreadsheet) {
    const spreadsheets = FORMATS.filter((other) => other.spreadsheet).map((other) => other.title);
    throw new UsageError(`--excel-safe applies to ${orList(spreadsheets)} output only`);
  }
  const fields = selectFields(flags.fields, allFields);
  // What is at -o FILE is looked at once, here, for every command: a device or a FIFO is refused, a link written through.
  const named = flags.output === STDOUT_NAME ? undefined : flags.output;
  const output = named === undefined || object ? named : outputTarget(named, '-o');
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

/** Writes a whole result: the people view (`table`) renders for people, other formats encode the records as sent. */
export async function writeResult<T extends object>(
  ctx: Context,
  plan: OutputPlan,
  records: readonly T[],
  allFields: readonly string[],
  table: (records: readonly T[], fields: readonly string[]) => string,
): Promise<void> {
  const format = formatOf(plan.format);
  // planOutput refused a format the lookups cannot write: any but the people view has an encoder.
  const encoder = format.people ? undefined : format.encoder?.({ fields: plan.fields, allFields, excelSafe: plan.excelSafe });
  let text = encoder ? encodeAll(encoder, records) : table(records, plan.fields);
  if (!plan.output) {
    // A table is made terminal-safe cell by cell (and coloured); machine formats keep every byte unless shown.
    const shown = !format.people && (ctx.io.stdout as { isTTY?: boolean }).isTTY === true;
    if (shown && format.shown) text = format.shown(text);
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
