/** The suite's order (test/helpers/slow-first.ts): every file it starts first exists, so a rename cannot leave one behind. */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { SLOW_FILES } from '../helpers/slow-first.js';

it('names test files that exist', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  expect(SLOW_FILES.filter((file) => !fs.existsSync(path.join(root, file)))).toEqual([]);
});
