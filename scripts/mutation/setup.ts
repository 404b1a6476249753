/**
 * A setup file of the StrykerJS runs only (vitest.stryker.config.ts), run before the test file's imports.
 *
 * Activation: StrykerJS 9.6.1 activates a mutant that has a test filter (every mutant, with --testFiles) when the
 * file's hooks start, after its imports ran (stryker-js#6144): a mutant in code run at import time (a constant's
 * value) would never be active, and would survive. Every test file is imported afresh here (isolate), so the
 * mutant is activated now, before the imports: for a mutant reached only inside tests this changes nothing.
 *
 * Coverage: Stryker's runner counts a mutant a test
 * reaches only while that test runs; code reached in a beforeAll hook (a sandbox started, an export run once
 * for a file's assertions) counts as reached by no test, and such a "static" mutant is run against the whole
 * suite. Running any test of a file runs its hooks, so what the hooks reach is given to every test of the file.
 * What the imports reach stays static: a mutant there is active only if set before the imports run.
 */
import { afterAll, beforeAll, inject } from 'vitest';

interface Coverage {
  static: Record<string, number>;
  perTest: Record<string, Record<string, number>>;
}
interface Task {
  type: string;
  name: string;
  suite?: Task;
  tasks?: Task[];
  file?: { filepath: string };
}

const ns = (globalThis as Record<string, unknown>).__stryker__ as { mutantCoverage?: Coverage; activeMutant?: string } | undefined;
let before: Record<string, number> = {};

const provided = inject as unknown as (key: string) => unknown;
if (ns && provided('mode') === 'mutant') ns.activeMutant = provided('activeMutant') as string;

beforeAll(() => {
  before = { ...ns?.mutantCoverage?.static };
});

afterAll((_context, suite) => {
  const coverage = ns?.mutantCoverage;
  if (!coverage || ns?.activeMutant !== undefined) return;
  const hooks: Record<string, number> = {};
  for (const [id, count] of Object.entries(coverage.static)) {
    const added = count - (before[id] ?? 0);
    if (added > 0) hooks[id] = added;
    if (before[id] === undefined) delete coverage.static[id];
    else coverage.static[id] = before[id];
  }
  for (const test of testsOf(suite as unknown as Task)) {
    const id = `${test.file?.filepath ?? 'unknown.js'}#${nameOf(test)}`;
    const reached = (coverage.perTest[id] ??= {});
    for (const [mutant, count] of Object.entries(hooks)) reached[mutant] = (reached[mutant] ?? 0) + count;
  }
});

function testsOf(task: Task): Task[] {
  return task.type === 'test' ? [task] : (task.tasks ?? []).flatMap(testsOf);
}

/** The name Stryker's runner gives a test: its suites' names and its own, joined by spaces. */
function nameOf(test: Task): string {
  const parts = [test.name];
  for (let suite = test.suite; suite; suite = suite.suite) parts.unshift(suite.name);
  return parts.join(' ').trim();
}
