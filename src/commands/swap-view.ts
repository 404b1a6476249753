/** The people view of one swap: both legs side by side, times, bridge, status, tags, balance changes. */
import type { ChalkInstance } from 'chalk';
import type { Swap } from '../api/types.js';
import { renderPairs, renderTable, textWidth } from '../output/table.js';
import { stripControl } from '../output/sanitize.js';

function text(value: unknown): string {
  return value === null || value === undefined ? '—' : String(value);
}

function usd(value: number | null): string {
  return value === null ? '—' : `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
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
    { label: 'USD', source: usd(swap.depositUsdAmount), destination: usd(swap.withdrawnUsdAmount) },
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
    ['deposited', text(swap.depositedAt)],
    ['withdrawn', text(swap.withdrawnAt)],
    ['detected', text(swap.detectedAt)],
    ['completed', text(swap.completedAt)],
    ['updated', text(swap.updatedAt)],
    ['protocol', text(swap.protocolKey)],
    ['interacted with', text(swap.sourceInteractedWith)],
    ['USD check', text(mismatch)],
    ['tags', swap.tags?.length ? swap.tags.map((t) => `${text(t.type)}=${text(t.value)}`).join(', ') : '—'],
  ];
  let details = renderPairs(pairs, (label) => c.dim(label));
  const colour = status[mismatch];
  if (colour) details = details.replace(`  ${mismatch}\n`, `  ${colour(mismatch)}\n`);

  let balances = '';
  if (swap.balanceChanges?.length) {
    // The account and the amount stay whole (to be copied); on a narrow terminal the others are cut, then dropped.
    balances = `\n${c.bold('Balance changes')}\n${renderTable(
      [
        { header: 'account', value: (b) => b.account, truncate: 'never', required: true },
        { header: 'chain', value: (b) => b.chain, priority: 3 },
        { header: 'token', value: (b) => b.token, priority: 2 },
        { header: 'direction', value: (b) => b.direction, priority: 1 },
        { header: 'amount', value: (b) => b.amount, align: 'right', truncate: 'never', required: true },
      ],
      swap.balanceChanges,
      { header: c.bold, maxWidth: width },
    )}`;
  }
  return `${head}\n${legTable}\n${details}${balances}`;
}
