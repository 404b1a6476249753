/**
 * The order test files start in: the longest first, so that none of them starts last and runs alone while the other
 * workers idle. Vitest orders by the durations of the run before; a fresh clone (CI) has none, and its fallback, the
 * largest files first, starts a short file that runs the Postgres chaos cases for half a minute last (measured: at
 * 228 s of a 263 s run). The files listed take 15 s or more; test/suite/slow-first.test.ts checks they exist.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const SLOW_FILES = [
  'test/readme/readme-commands.test.ts',
  'test/mirror/postgres/chaos-postgres.test.ts',
  'test/mirror/postgres/sync-lost.test.ts',
  'test/mirror/postgres/sync-kill.test.ts',
  'test/sync/sync-kill.test.ts',
  'test/sync/backfill-kills.test.ts',
  'test/mirror/lake/chaos-lake.test.ts',
  'test/e2e/parquet-export.test.ts',
  'test/cli/swap-wait.test.ts',
  'test/sync/parquet.test.ts',
  'test/mirror/postgres/sync-postgres.test.ts',
  'test/export/to-object.test.ts',
  'test/sync/sync.test.ts',
] as const;

export default class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = SLOW_FILES.findIndex((slow) => file.moduleId.endsWith(`/${slow}`));
      return at === -1 ? SLOW_FILES.length : at;
    };
    // Stable: the listed files in the list's order, then the rest in vitest's.
    return sorted
      .map((file, i) => ({ file, i, rank: rank(file) }))
      .sort((a, b) => a.rank - b.rank || a.i - b.i)
      .map(({ file }) => file);
  }
}
