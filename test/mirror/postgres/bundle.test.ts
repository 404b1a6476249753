/**
 * The Postgres driver stays out of every other command's start: the CLI bundle (scripts/build-cli.js, built by
 * `npm test` before the tests) requires it from node_modules when a sync into Postgres runs, and holds none of its code.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';

const program = fs.readFileSync(path.resolve(import.meta.dirname, '../../../dist/cli-bundle/chunks/program.cjs'), 'utf8');

describe('the CLI bundle', () => {
  it('requires the driver at run time and compiles none of it in', () => {
    expect(program).toContain('require("postgres")');
    // Strings of the driver's own code: its SCRAM login and its COPY stream.
    expect(program).not.toContain('SCRAM-SHA-256');
    expect(program).not.toContain('CopyInResponse');
  });
});
