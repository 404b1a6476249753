/** What `swapx swaps` says of its plan: the --dry-run text, the note of a future --to, and the words that resume it. */
import { WINDOW_MS } from '../../api/bounds.js';
import { DEFAULT_FILTER, LIST_SWAP_FIELDS } from '../../api/types.js';
import { formatFromPath } from '../../formats/choose.js';
import { type Difference, describeDifferences } from '../../util/fingerprint.js';
import { formatDuration, formatUtc } from '../../util/time.js';
import { type ExportPlan, windowsOf } from '../../export/plan.js';

/** The --dry-run text. */
export function describePlan(plan: ExportPlan): string {
  const windows = windowsOf(plan);
  const filter = plan.filter ?? `${DEFAULT_FILTER} (server default)`;
  const lines = [
    `range        ${formatUtc(plan.from)} → ${formatUtc(plan.to)} (UTC, end excluded)`,
    `filter       ${filter}`,
    `window       ${formatDuration(plan.windowMs)}`,
    `windows      ${windows.length}`,
    `requests     ${windows.length} (more if windows are retried or split)`,
    `concurrency  ${plan.concurrency}`,
  ];
  if (windows.length > 0) {
    lines.push(`first        ${formatUtc(windows[0]!.from)} → ${formatUtc(windows[0]!.to)}`);
    const last = windows[windows.length - 1]!;
    lines.push(`last         ${formatUtc(last.from)} → ${formatUtc(last.to)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** "--to 2026-12-01T00:00:00Z is in the future: the export stops at now (…)", or undefined. */
export function futureNote(plan: ExportPlan): string | undefined {
  if (plan.futureTo === undefined) return undefined;
  return `--to ${formatUtc(plan.futureTo)} is in the future: the export stops at now (${formatUtc(plan.to)})`;
}

/**
 * The words of `swaps` that continue this export, after `swapx` and its global options: absolute
 * times (so `--last 24h` resumes the same range), and only what differs from the defaults.
 */
export function resumeArgs(plan: ExportPlan): string[] {
  const { output } = plan;
  const words = ['swaps', '--from', formatUtc(plan.from), '--to', formatUtc(plan.to)];
  if (plan.filter) words.push('--filter', plan.filter);
  if (plan.windowMs !== WINDOW_MS.default) words.push('--window', formatDuration(plan.windowMs));
  if (output.file === undefined || formatFromPath(output.file).format !== output.format) words.push('--format', output.format);
  const allFields = output.fields.length === LIST_SWAP_FIELDS.length && output.fields.every((field, i) => field === LIST_SWAP_FIELDS[i]);
  if (!allFields) words.push('--fields', output.fields.join(','));
  if (output.excelSafe) words.push('--excel-safe');
  words.push('-o', output.object ?? output.file ?? '', '--resume');
  return words;
}

/** A saved export query's keys, as a difference names them: the flags that set them. */
const LABELS: Readonly<Record<string, string>> = { from: '--from', to: '--to', windowMs: '--window (ms)', fields: '--fields', excelSafe: '--excel-safe' };

/** "--from was …, now …; gzip was false, now true": what an unfinished export's query and this run's differ in. */
export function describeQueryChange(differences: readonly Difference[]): string {
  return describeDifferences(differences, LABELS);
}
