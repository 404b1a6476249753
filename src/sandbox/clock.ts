/**
 * A fast formatter for swap timestamps: the same text as util/time's
 * formatUtc (whole seconds without a fraction, else milliseconds), without a
 * Date per call. Serialising five times per swap made Date the hot spot.
 */
import { formatUtc } from '../util/time.js';

const DAY = 86_400_000;
let cachedDay = NaN;
let cachedPrefix = '';

const TWO = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const THREE = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

export function formatTimestamp(ms: number): string {
  // Outside years 1970-9999 or not whole ms: leave it to the general formatter.
  if (!(ms >= 0 && ms < 253402300800000) || !Number.isInteger(ms)) return formatUtc(ms);
  const day = Math.floor(ms / DAY);
  if (day !== cachedDay) {
    cachedDay = day;
    cachedPrefix = new Date(day * DAY).toISOString().slice(0, 11);
  }
  let rest = ms - day * DAY;
  const milli = rest % 1000;
  rest = (rest - milli) / 1000;
  const sec = rest % 60;
  rest = (rest - sec) / 60;
  const min = rest % 60;
  const hour = (rest - min) / 60;
  const hms = `${cachedPrefix}${TWO[hour]}:${TWO[min]}:${TWO[sec]}`;
  return milli === 0 ? `${hms}Z` : `${hms}.${THREE[milli]}Z`;
}
