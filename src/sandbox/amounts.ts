/**
 * Token amounts that stay exact across their three forms: the decimal string
 * of a balance change, its integer rawAmount (amount × 10^decimals) and the
 * JSON double of the swap (the decimal string parsed).
 */
import type { BalanceChange } from '../api/types.js';

export interface Amount {
  /** Decimal string without trailing zeros, e.g. "1520.25". */
  text: string;
  /** Integer string of the smallest unit, e.g. "1520250000" for 6 decimals. */
  raw: string;
  /** The text as a JSON number. */
  value: number;
  decimals: number;
}

const POW10 = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000];
const ZEROS = Array.from({ length: 40 }, (_, i) => '0'.repeat(i));

/** Rounds to at most 6 decimals (fewer when needed to stay an exact double). */
export function quantize(amount: number, decimals: number): Amount {
  let scale = Math.min(decimals, 6);
  while (scale > 0 && amount * (POW10[scale] as number) >= 9e15) scale--;
  const unit = POW10[scale] as number;
  const units = Math.max(1, Math.round(amount * unit));
  const whole = Math.floor(units / unit);
  let fraction = units - whole * unit;
  let digits = scale;
  while (digits > 0 && fraction % 10 === 0) {
    fraction /= 10;
    digits--;
  }
  const text = digits === 0 ? String(whole) : `${whole}.${String(fraction).padStart(digits, '0')}`;
  const raw = `${units}${ZEROS[decimals - scale] ?? '0'.repeat(decimals - scale)}`;
  // units / 10^scale is the correctly rounded double of `text`, as Number(text) would be.
  return { text, raw, value: units / unit, decimals };
}

/** A balance change of `amount` entering (`in`) or leaving (`out`, negative) an account. */
export function balanceChange(
  account: string,
  chain: string,
  token: string,
  tokenContract: string | null,
  amount: Amount,
  direction: 'in' | 'out',
): BalanceChange {
  const sign = direction === 'out' ? '-' : '';
  return {
    account,
    chain,
    token,
    // Native coins have no contract; the field is not nullable, so it is empty.
    tokenContract: tokenContract ?? '',
    decimals: amount.decimals,
    rawAmount: `${sign}${amount.raw}`,
    direction,
    amount: `${sign}${amount.text}`,
  };
}

export function roundUsd(value: number): number {
  return Math.round(value * 100) / 100;
}
