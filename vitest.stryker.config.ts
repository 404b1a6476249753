import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// The config StrykerJS runs the tests with (`npm run mutate`). Its vitest runner asks for the threads pool,
// but test/helpers/run.ts changes the working directory, which a worker thread may not: every project is
// put back on forks once its config is resolved. Each file gets its own module graph again, so that a
// mutant in code run at import time is seen by every test that covers it. scripts/mutation/setup.ts comes
// first, before anything a setup file imports: it activates the mutant before the imports, and gives what
// beforeAll hooks reach to the tests of their file.
export default defineConfig({
  ...base,
  test: { ...base.test, isolate: true, setupFiles: ['scripts/mutation/setup.ts', ...[base.test?.setupFiles ?? []].flat()] },
  plugins: [
    {
      name: 'swapx:stryker-forks',
      configureVitest({ project }) {
        project.config.pool = 'forks';
        project.config.isolate = true;
      },
    },
  ],
});
