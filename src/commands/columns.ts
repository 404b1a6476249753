/** Table columns straight from field names, for the plain list views. */
import type { Context } from '../cli/context.js';
import type { OutputPlan } from '../cli/output.js';
import { displayValue } from '../output/display.js';
import { terminalWidth, type Column } from '../output/table.js';

/** How a field's cells give way on a narrow terminal: addresses keep both ends, links most of themselves. */
function fitFor(field: string): Pick<Column<unknown>, 'truncate' | 'minWidth'> {
  if (/url|icon/i.test(field)) return { truncate: 'middle', minWidth: 24 };
  if (/contract|account|transaction|address/i.test(field)) return { truncate: 'middle', minWidth: 13 };
  return { truncate: 'end', minWidth: 8 };
}

/**
 * One column per field. `chosen`: the user named these with --fields, so
 * none is dropped for width (cells are cut instead).
 */
export function fieldColumns<T extends object>(
  fields: readonly string[],
  overrides: Partial<Record<string, Partial<Column<T>>>> = {},
  chosen = false,
): Column<T>[] {
  return fields.map((field) => ({
    header: field,
    value: (row: T) => {
      const value = (row as Record<string, unknown>)[field];
      return value === null || value === undefined ? '—' : displayValue(value);
    },
    align: undefined,
    ...fitFor(field),
    ...overrides[field],
    ...(chosen ? { required: true } : {}),
  }));
}

/** The width a table fits: the terminal's for stdout; a file (-o) keeps every column. */
export function tableWidth(ctx: Context, plan: Pick<OutputPlan, 'output'>): number {
  return plan.output ? Number.POSITIVE_INFINITY : terminalWidth(ctx.io.stdout as { columns?: number; isTTY?: boolean }, ctx.io.env);
}
