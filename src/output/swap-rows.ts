/**
 * The people view of a swap stream: one fixed-width line per swap, so a
 * week of swaps streams to a terminal without being held in memory.
 */
import type { ChalkInstance } from 'chalk';
import type { DateRangeFilter, Swap } from '../api/types.js';
import { DEFAULT_FILTER, FILTER_TIME_FIELD } from '../api/types.js';
import type { Encoder } from './encode.js';
import { stripControl } from './sanitize.js';

function cell(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const clean = stripControl(text);
  const cut = [...clean].length > width ? `${[...clean].slice(0, width - 1).join('')}…` : clean;
  return align === 'right' ? cut.padStart(width) : cut.padEnd(width);
}

function amount(value: number | null, token: string | null): string {
  if (value === null) return '—';
  return `${value.toLocaleString('en-US', { maximumFractionDigits: 4 })} ${token ?? ''}`.trim();
}

export function swapRowsEncoder(filter: DateRangeFilter | undefined, c: ChalkInstance): Encoder {
  const timeField = FILTER_TIME_FIELD[filter ?? DEFAULT_FILTER];
  const widths = [24, 16, 22, 22, 22, 12, 16];
  const header = [timeField, 'bridge', 'route', 'deposit', 'withdrawal', 'USD', 'USD check'];
  const mismatch: Record<string, (t: string) => string> = { MismatchDetected: c.red, NotFound: c.yellow, Unprocessed: c.dim };
  return {
    header: () => `${c.bold(header.map((h, i) => cell(h, widths[i]!)).join(' ').trimEnd())}\n`,
    batch: (records) =>
      (records as readonly Swap[])
        .map((s) => {
          const usd = s.withdrawnUsdAmount ?? s.depositUsdAmount;
          const status = cell(s.usdMismatchStatus ?? '', widths[6]!);
          return (
            [
              cell(String(s[timeField] ?? ''), widths[0]!),
              cell(s.bridge ?? '—', widths[1]!),
              cell(`${s.sourceChain ?? '?'} → ${s.destinationChain ?? '?'}`, widths[2]!),
              cell(amount(s.depositAmount, s.sourceToken), widths[3]!, 'right'),
              cell(amount(s.withdrawnAmount, s.destinationToken), widths[4]!, 'right'),
              cell(usd === null ? '—' : `$${usd.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`, widths[5]!, 'right'),
              (mismatch[s.usdMismatchStatus] ?? ((t: string) => t))(status),
            ]
              .join(' ')
              .trimEnd() + '\n'
          );
        })
        .join(''),
    between: '',
    footer: () => '',
  };
}
