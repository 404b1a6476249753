// StrykerJS for the engine modules: `npm run mutate [module...]` (scripts/mutate.js) runs it one module at a
// time with the options below; docs/mutation.md says when and how. Mutants that cannot change behaviour are
// listed with their reasons in stryker-equivalents.json, next to this file; nothing else is excluded.
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.stryker.config.ts' },
  coverageAnalysis: 'perTest',
  reporters: ['progress', 'html', 'json'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  ignorePatterns: ['coverage', 'reports', 'demo-output', '.swapx-*'],
  // Stryker rewrites the paths in tsconfig.json with TypeScript's JavaScript API, which TypeScript 7 no
  // longer has. Our tsconfig files hold no paths that leave the project, so there is nothing to rewrite:
  // pointing at a file that does not exist skips the step.
  tsconfigFile: 'tsconfig.stryker-skips-this.json',
  timeoutMS: 10_000,
  concurrency: 2,
  thresholds: { high: 95, low: 85, break: null },
};
