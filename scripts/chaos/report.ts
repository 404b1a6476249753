// The rows of the chaos table, how cases are run side by side, and how the table and its notes are printed.

/** A row of the chaos table. */
export interface CaseRow {
  case: string;
  faults: string;
  retries: number;
  rows: number;
  /** null when the case never got to compare */
  differences: number | null;
  /** what failed besides differences (exit codes, messages, leftovers) */
  problems: string[];
  /** what is worth knowing (error messages printed, resumes) */
  notes: string[];
  /** the whole case, ms */
  ms: number;
  /** clean cases: how long the run took from the sandbox's first answer to its exit, ms */
  runMs: number;
  /** left out by --only */
  skipped?: boolean;
}

export function emptyRow(name: string): CaseRow {
  return { case: name, faults: '', retries: 0, rows: 0, differences: null, problems: [], notes: [], ms: 0, runMs: 0 };
}

/** Runs case thunks at most `concurrency` at a time; the rows come back in the order given. */
export async function runCases(thunks: readonly (() => Promise<CaseRow>)[], concurrency = 2): Promise<CaseRow[]> {
  const rows: CaseRow[] = new Array(thunks.length);
  let next = 0;
  const worker = async () => {
    while (next < thunks.length) {
      const index = next++;
      const thunk = thunks[index];
      if (thunk) rows[index] = await thunk();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, thunks.length) }, worker));
  return rows;
}

/** Whether a row passed: compared, no difference, no problem. */
export function passed(row: CaseRow): boolean {
  return row.differences === 0 && row.problems.length === 0;
}

/** The table: case, faults injected, retries, rows compared, differences (and the verdict). */
export function formatTable(rows: readonly CaseRow[]): string {
  const header = ['case', 'faults injected', 'retries', 'rows compared', 'differences', 'result'];
  const body = rows.map((row) => [
    row.case,
    row.faults || '—',
    String(row.retries),
    String(row.rows),
    row.differences === null ? 'n/a' : String(row.differences),
    passed(row) ? 'ok' : 'FAIL',
  ]);
  const total = [
    `total: ${rows.length} cases`,
    '',
    String(rows.reduce((sum, row) => sum + row.retries, 0)),
    String(rows.reduce((sum, row) => sum + row.rows, 0)),
    String(rows.reduce((sum, row) => sum + (row.differences ?? 0), 0)),
    `${rows.filter(passed).length}/${rows.length} ok`,
  ];
  const all = [header, ...body, total];
  const widths = header.map((_, i) => Math.max(...all.map((cells) => (cells[i] ?? '').length)));
  const numeric = new Set([2, 3, 4]);
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(header), rule, ...body.map(line), rule, line(total)].join('\n');
}

/** What went wrong or is worth knowing, case by case (problems first). */
export function formatNotes(rows: readonly CaseRow[]): string {
  const lines: string[] = [];
  for (const row of rows) {
    for (const problem of row.problems) lines.push(`FAIL ${row.case}: ${problem}`);
    for (const note of row.notes) lines.push(`note ${row.case}: ${note}`);
  }
  return lines.join('\n');
}
