import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

// The config StrykerJS runs the tests with (`npm run mutate`). Its vitest runner asks for the threads pool,
// but test/helpers/run.ts changes the working directory, which a worker thread may not: every project is
// put back on forks once its config is resolved. Each file gets its own module graph again, so that a
// mutant in code run at import time is seen by every test that covers it. What beforeAll hooks reach is
// given to the tests of their file (scripts/mutation/hook-coverage.ts).
export default mergeConfig(
  base,
  defineConfig({
    test: { isolate: true, setupFiles: ['scripts/mutation/hook-coverage.ts'] },
    plugins: [
      {
        name: 'swapx:stryker-forks',
        configureVitest({ project }) {
          project.config.pool = 'forks';
          project.config.isolate = true;
        },
      },
    ],
  }),
);
