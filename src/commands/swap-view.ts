/**
 * The people view of one swap: both legs side by side (or one above the other), times, bridge, status, tags, balance
 * changes. Every line fits the width (hashes go on below themselves, whole), and each transaction opens its
 * explorer's page: as a terminal hyperlink on the hash, or where there is none, its address on a line below.
 */
import type { ChalkInstance } from 'chalk';
import type { Swap } from '../api/types.js';
import { stripControl } from '../output/sanitize.js';
import { humanTime, renderTable, textWidth, usdCell } from '../output/table.js';
import { breakText, type CardLook, type Cell, type LegRow, pairLines, sideBySide } from './card-layout.js';
import { type Explorers, transactionUrl } from './explorers.js';

function text(value: unknown): string {
  return value === null || value === undefined ? '—' : String(value);
}

/** A tag as `type=value`; a missing half is left out, not shown as a dash. */
function tagText(tag: { type: string | null; value: string | null }): string | undefined {
  if (tag.type === null && tag.value === null) return undefined;
  if (tag.value === null) return tag.type!;
  return tag.type === null ? tag.value : `${tag.type}=${tag.value}`;
}

/** `Swap ID  Bridge (key)`; on two lines (the id's own broken, whole) where one does not hold it. */
function headLines(swap: Swap, { c, width }: CardLook): string[] {
  const id = stripControl(text(swap.id));
  const key = swap.bridgeKey ? ` (${stripControl(swap.bridgeKey)})` : '';
  const bridge = `${stripControl(text(swap.bridge))}${key ? c.dim(key) : ''}`;
  if (textWidth(`Swap ${id}  ${stripControl(text(swap.bridge))}${key}`) <= width) return [`${c.bold('Swap')} ${id}  ${bridge}`];
  const [first, ...rest] = breakText(id, Math.max(16, width - 5));
  return [`${c.bold('Swap')} ${first}`, ...rest.map((piece) => `     ${piece}`), bridge];
}

interface Legs {
  rows: LegRow[];
  /** each transaction's explorer page */
  urls: { source?: string; destination?: string };
}

function legsOf(swap: Swap, explorers: Explorers | undefined): Legs {
  const plain = (label: string, source: unknown, destination: unknown): LegRow => ({
    label,
    source: { text: text(source) },
    destination: { text: text(destination) },
  });
  const urls = {
    source: transactionUrl(explorers?.get(swap.sourceChain ?? ''), swap.sourceTransaction),
    destination: transactionUrl(explorers?.get(swap.destinationChain ?? ''), swap.destinationTransaction),
  };
  const rows = [
    plain('chain', swap.sourceChain, swap.destinationChain),
    plain('account', swap.sourceAccount, swap.destinationAccount),
    {
      label: 'transaction',
      source: { text: text(swap.sourceTransaction), url: urls.source },
      destination: { text: text(swap.destinationTransaction), url: urls.destination },
    },
    plain('token', swap.sourceToken, swap.destinationToken),
    plain('contract', swap.sourceTokenContract, swap.destinationTokenContract),
    plain('amount', swap.depositAmount, swap.withdrawnAmount),
    { label: 'USD', source: { text: usdCell(swap.depositUsdAmount) }, destination: { text: usdCell(swap.withdrawnUsdAmount) } },
    plain('protocol', swap.sourceProtocolAddress, swap.destinationProtocolAddress),
  ];
  return { rows, urls };
}

/**
 * The legs side by side where they fit, else one above the other. Where a link cannot sit on its hash (not a terminal
 * that takes hyperlinks), its address goes under the transaction, or under the legs when they stand side by side
 * (two addresses beside each other would fit no terminal).
 */
function legLines({ rows, urls }: Legs, look: CardLook): string[] {
  const { c } = look;
  const addresses = look.links === 'plain' && (urls.source !== undefined || urls.destination !== undefined);
  const side = sideBySide(rows, ['source (deposit)', 'destination (withdrawal)'], look);
  if (side) {
    if (!addresses) return side;
    const pairs = [['source explorer', urls.source] as const, ['destination explorer', urls.destination] as const];
    return [
      ...side,
      '',
      ...pairLines(
        pairs.filter(([, url]) => url !== undefined).map(([label, url]) => [label, { text: url!, whole: true }] as const),
        look,
      ),
    ];
  }
  const stacked = (title: string, pick: (l: LegRow) => Cell, url: string | undefined) => {
    const pairs = rows.flatMap((l) => {
      const pair = [l.label, pick(l)] as const;
      return addresses && l.label === 'transaction' ? [pair, ['explorer', { text: url ?? '—', whole: true }] as const] : [pair];
    });
    return [c.bold(title), ...pairLines(pairs, look)];
  };
  return [...stacked('source (deposit)', (l) => l.source, urls.source), '', ...stacked('destination (withdrawal)', (l) => l.destination, urls.destination)];
}

/** `explorers`: each chain's explorer, for the transactions' links; none, no links. */
export function swapDetail(swap: Swap, look: CardLook, explorers?: Explorers): string {
  const { c } = look;

  const status: Record<string, (t: string) => string> = { OK: c.green, MismatchDetected: c.red, NotFound: c.yellow, Unprocessed: c.dim };
  const tags = swap.tags
    ?.map(tagText)
    .filter((t) => t !== undefined)
    .join(', ');
  const details: [string, Cell][] = [
    ['deposited', { text: humanTime(swap.depositedAt) }],
    ['withdrawn', { text: humanTime(swap.withdrawnAt) }],
    ['detected', { text: humanTime(swap.detectedAt) }],
    ['completed', { text: humanTime(swap.completedAt) }],
    ['updated', { text: humanTime(swap.updatedAt) }],
    ['protocol key', { text: text(swap.protocolKey) }],
    ['interacted with', { text: text(swap.sourceInteractedWith) }],
    ['USD check', { text: text(swap.usdMismatchStatus), style: status[swap.usdMismatchStatus] }],
    ['tags', { text: tags || '—' }],
  ];
  const lines = [...headLines(swap, look), '', ...legLines(legsOf(swap, explorers), look), '', ...pairLines(details, look)];
  if (swap.balanceChanges?.length) lines.push('', c.bold('Balance changes'), ...balanceLines(swap.balanceChanges, c, look.width));
  return `${lines.join('\n')}\n`;
}

type Change = NonNullable<Swap['balanceChanges']>[number];

/**
 * A change is keyed by (account, chain, token): all three stay whole, with the amount (account and amount to be
 * copied); the direction goes first (the amount's sign says it), and its header is never cut to `directi…`. Where one
 * line per change still does not fit, each account heads the lines of its changes.
 */
function balanceLines(changes: readonly Change[], c: ChalkInstance, width: number): string[] {
  const rest = [
    { header: 'chain', value: (b: Change) => b.chain, truncate: 'never' as const, required: true },
    { header: 'token', value: (b: Change) => b.token, truncate: 'never' as const, required: true },
    { header: 'direction', value: (b: Change) => b.direction, priority: -10, minWidth: 'direction'.length },
    { header: 'amount', value: (b: Change) => b.amount, align: 'right' as const, truncate: 'never' as const, required: true },
  ];
  const flat = renderTable([{ header: 'account', value: (b: Change) => b.account, truncate: 'never' as const, required: true }, ...rest], changes, {
    header: c.bold,
    maxWidth: width,
  })
    .trimEnd()
    .split('\n');
  if (Math.max(...flat.map((line) => textWidth(stripControl(line)))) <= width) return flat;
  // One table for every change (columns aligned throughout), each account's rows under that account.
  const accounts = [...new Set(changes.map((b) => b.account))];
  const grouped = accounts.flatMap((account) => changes.filter((b) => b.account === account));
  const [header, ...rows] = renderTable(rest, grouped, { header: c.bold, maxWidth: width - 2 })
    .trimEnd()
    .split('\n');
  const lines = [`  ${header}`];
  grouped.forEach((change, i) => {
    if (i === 0 || grouped[i - 1]!.account !== change.account) lines.push(...breakText(stripControl(change.account), width));
    lines.push(`  ${rows[i]}`);
  });
  return lines;
}
