/** The people view of one swap: both legs side by side, times, bridge, status, tags, balance changes. */
import type { ChalkInstance } from 'chalk';
import type { Swap } from '../api/types.js';
import { humanTime, renderPairs, renderTable, textWidth, usdCell } from '../output/table.js';
import { stripControl } from '../output/sanitize.js';

function text(value: unknown): string {
  return value === null || value === undefined ? '—' : String(value);
}

/** A tag as `type=value`; a missing half is left out, not shown as a dash. */
function tagText(tag: { type: string | null; value: string | null }): string | undefined {
  if (tag.type === null && tag.value === null) return undefined;
  if (tag.value === null) return tag.type!;
  return tag.type === null ? tag.value : `${tag.type}=${tag.value}`;
}

/** `width`: the terminal's; the legs stack instead of standing side by side when they would not fit (hashes stay whole to be copied). */
export function swapDetail(swap: Swap, c: ChalkInstance, width = Number.POSITIVE_INFINITY): string {
  const status: Record<string, (t: string) => string> = { OK: c.green, MismatchDetected: c.red, NotFound: c.yellow, Unprocessed: c.dim };
  const head = `${c.bold('Swap')} ${stripControl(text(swap.id))}  ${stripControl(text(swap.bridge))}${swap.bridgeKey ? c.dim(` (${stripControl(swap.bridgeKey)})`) : ''}\n`;

  type Leg = { label: string; source: string; destination: string };
  const legs: Leg[] = [
    { label: 'chain', source: text(swap.sourceChain), destination: text(swap.destinationChain) },
    { label: 'account', source: text(swap.sourceAccount), destination: text(swap.destinationAccount) },
    { label: 'transaction', source: text(swap.sourceTransaction), destination: text(swap.destinationTransaction) },
    { label: 'token', source: text(swap.sourceToken), destination: text(swap.destinationToken) },
    { label: 'contract', source: text(swap.sourceTokenContract), destination: text(swap.destinationTokenContract) },
    { label: 'amount', source: text(swap.depositAmount), destination: text(swap.withdrawnAmount) },
    { label: 'USD', source: usdCell(swap.depositUsdAmount), destination: usdCell(swap.withdrawnUsdAmount) },
    { label: 'protocol', source: text(swap.sourceProtocolAddress), destination: text(swap.destinationProtocolAddress) },
  ];
  let legTable = renderTable(
    [
      { header: '', value: (l: Leg) => l.label, style: (p: string) => c.dim(p) },
      { header: 'source (deposit)', value: (l: Leg) => l.source },
      { header: 'destination (withdrawal)', value: (l: Leg) => l.destination },
    ],
    legs,
    { header: c.bold },
  );
  if (Math.max(...legTable.split('\n').map((line) => textWidth(stripControl(line)))) > width) {
    const side = (title: string, pick: (l: Leg) => string) =>
      `${c.bold(title)}\n${renderPairs(
        legs.map((l) => [l.label, pick(l)] as const),
        (label) => c.dim(label),
      )}`;
    legTable = `${side('source (deposit)', (l) => l.source)}\n${side('destination (withdrawal)', (l) => l.destination)}`;
  }

  const mismatch = swap.usdMismatchStatus;
  const pairs: [string, string][] = [
    ['deposited', humanTime(swap.depositedAt)],
    ['withdrawn', humanTime(swap.withdrawnAt)],
    ['detected', humanTime(swap.detectedAt)],
    ['completed', humanTime(swap.completedAt)],
    ['updated', humanTime(swap.updatedAt)],
    ['protocol key', text(swap.protocolKey)],
    ['interacted with', text(swap.sourceInteractedWith)],
    ['USD check', text(mismatch)],
    [
      'tags',
      swap.tags
        ?.map(tagText)
        .filter((t) => t !== undefined)
        .join(', ') || '—',
    ],
  ];
  let details = renderPairs(pairs, (label) => c.dim(label));
  const colour = status[mismatch];
  if (colour) details = details.replace(`  ${mismatch}\n`, `  ${colour(mismatch)}\n`);

  let balances = '';
  if (swap.balanceChanges?.length) balances = `\n${c.bold('Balance changes')}\n${balanceTable(swap.balanceChanges, c, width)}`;
  return `${head}\n${legTable}\n${details}${balances}`;
}

type Change = NonNullable<Swap['balanceChanges']>[number];

/**
 * A change is keyed by (account, chain, token): all three stay, with the amount (account and amount whole, to be
 * copied); the direction goes first (the amount's sign says it). Where one line per change still does not fit, each
 * account heads the lines of its changes.
 */
function balanceTable(changes: readonly Change[], c: ChalkInstance, width: number): string {
  const rest = [
    { header: 'chain', value: (b: Change) => b.chain, required: true },
    { header: 'token', value: (b: Change) => b.token, required: true },
    { header: 'direction', value: (b: Change) => b.direction, priority: -10 },
    { header: 'amount', value: (b: Change) => b.amount, align: 'right' as const, truncate: 'never' as const, required: true },
  ];
  const flat = renderTable([{ header: 'account', value: (b: Change) => b.account, truncate: 'never' as const, required: true }, ...rest], changes, {
    header: c.bold,
    maxWidth: width,
  });
  if (Math.max(...flat.split('\n').map((line) => textWidth(stripControl(line)))) <= width) return flat;
  // One table for every change (columns aligned throughout), each account's rows under that account.
  const accounts = [...new Set(changes.map((b) => b.account))];
  const grouped = accounts.flatMap((account) => changes.filter((b) => b.account === account));
  const [header, ...rows] = renderTable(rest, grouped, { header: c.bold, maxWidth: width - 2 })
    .trimEnd()
    .split('\n');
  const lines = [`  ${header}`];
  grouped.forEach((change, i) => {
    if (i === 0 || grouped[i - 1]!.account !== change.account) lines.push(stripControl(change.account));
    lines.push(`  ${rows[i]}`);
  });
  return `${lines.join('\n')}\n`;
}
