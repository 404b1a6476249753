#!/usr/bin/env node
// `npm run mutate [module...] [--all-tests | --tests FILES] [--concurrency N]`: StrykerJS on the engine modules, one module at a
// time, each with its own dry run and per-test coverage. A module's mutants run against the test files that
// import it (its own tests, fast: minutes a module); --all-tests runs them against every test that reaches it,
// the CLI's included (hours on two cores); --tests a,b runs them against those test files alone. A module is named as under src/ (`sync/pending.ts`, `sync/pending`,
// `src/mirror/partitions/pending.ts`) or as a folder (`sync`, `mirror/postgres`); none means every engine module. Writes
// reports/mutation/<module>.html and .json, prints each module's score, and exits 1 when one is under the bar.
// Mutants listed in stryker-equivalents.json (each with the reason it cannot change behaviour) are not
// counted. See docs/mutation.md.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Stryker } from '@stryker-mutator/core';
import { transformSync } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The engines: everything below the shell (src/cli, src/commands, src/main.ts) but the sandbox, a test tool. */
const ENGINE_DIRS = ['api', 'config', 'export', 'formats', 'fs', 'mirror', 'output', 'sync', 'util', 'windows'];
const BAR = 85;

const args = process.argv.slice(2);
let concurrency = 2;
let allTests = false;
/** --tests: these test files instead (a quick look at what they alone notice) */
const chosenTests = [];
const named = [];
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg === '--concurrency' || arg.startsWith('--concurrency=')) {
    const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[++i];
    concurrency = Number(value);
    if (!Number.isInteger(concurrency) || concurrency < 1) fail(`--concurrency wants a whole number of at least 1, not ${JSON.stringify(value)}`);
  } else if (arg === '--tests' || arg.startsWith('--tests=')) {
    const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[++i];
    if (!value) fail('--tests wants test files or globs, separated by commas');
    chosenTests.push(...value.split(','));
  } else if (arg === '--all-tests') allTests = true;
  else if (arg.startsWith('-')) fail(`unknown option ${arg} (usage: npm run mutate [module...] [--all-tests | --tests FILES] [--concurrency N])`);
  else named.push(arg);
}

function fail(message) {
  process.stderr.write(`mutate: ${message}\n`);
  process.exit(2);
}

function sourcesUnder(dir) {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

function resolveModule(name) {
  const bare = name.replace(/^\.?\/?(src\/)?/, '').replace(/\/$/, '');
  for (const candidate of [`src/${bare}`, `src/${bare}.ts`]) {
    const full = path.join(root, candidate);
    if (!fs.existsSync(full)) continue;
    return fs.statSync(full).isDirectory() ? sourcesUnder(candidate) : [candidate];
  }
  fail(`no module src/${bare}(.ts)`);
}

const testFiles = sourcesUnder('test').filter((file) => file.endsWith('.test.ts'));
const IMPORT_RE = /(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g;
const importsOf = new Map(
  testFiles.map((file) => {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const targets = [...text.matchAll(IMPORT_RE)].map((m) => path.posix.join(path.posix.dirname(file), m[1]).replace(/\.js$/, '.ts'));
    return [file, new Set(targets)];
  }),
);

/** The source modules that import `module` themselves. */
function importersOf(module) {
  return ENGINE_DIRS.flatMap((dir) => sourcesUnder(`src/${dir}`)).filter((file) => {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    return [...text.matchAll(IMPORT_RE)].some((m) => path.posix.join(path.posix.dirname(file), m[1]).replace(/\.js$/, '.ts') === module);
  });
}

/**
 * The test files that import `module` themselves; for a module reached only through the modules that import it
 * (the Parquet writer's parts, behind writer.ts), the test files that import those.
 */
function ownTests(module) {
  const own = testFiles.filter((file) => importsOf.get(file).has(module));
  if (own.length > 0) return own;
  const importers = new Set(importersOf(module));
  return testFiles.filter((file) => [...importsOf.get(file)].some((target) => importers.has(target)));
}

const modules = [...new Set(named.length > 0 ? named.flatMap(resolveModule) : ENGINE_DIRS.flatMap((dir) => sourcesUnder(`src/${dir}`)))];
const equivalents = JSON.parse(fs.readFileSync(path.join(root, 'stryker-equivalents.json'), 'utf8')).mutants;
const used = new Set();

/**
 * Whether a surviving mutant is one stryker-equivalents.json lists: same file, mutator, original code and
 * replacement, and, when the entry has `in`, a line that contains it (for short originals such as `true`).
 */
function listedEquivalent(file, mutant, source) {
  const original = sliceOf(source, mutant.location);
  const line = source.split('\n')[mutant.location.start.line - 1] ?? '';
  const index = equivalents.findIndex(
    (entry) =>
      entry.file === file &&
      entry.mutator === mutant.mutatorName &&
      entry.original === original &&
      entry.replacement === mutant.replacement &&
      (entry.in === undefined || line.includes(entry.in)),
  );
  if (index >= 0) used.add(index);
  return index >= 0;
}

/** The source text a mutant replaces (Stryker's lines and columns here count from 1). */
function sliceOf(source, { start, end }) {
  const lines = source.split('\n');
  const at = (position) => lines.slice(0, position.line - 1).reduce((sum, line) => sum + line.length + 1, 0) + position.column - 1;
  return source.slice(at(start), at(end));
}

const reportDir = path.join(root, 'reports/mutation');
fs.mkdirSync(reportDir, { recursive: true });
const rows = [];
/** Whether `file` holds only types: compiled, it is empty, so there is nothing to mutate (Stryker stops on such a module). */
function typesOnly(file) {
  const { code } = transformSync(fs.readFileSync(path.join(root, file), 'utf8'), { loader: 'ts', format: 'esm' });
  return code.replace(/^export \{\s*\};?$/m, '').trim() === '';
}

for (const file of modules) {
  if (typesOnly(file)) {
    process.stdout.write(`\n== ${file}: types only, no code to mutate\n`);
    continue;
  }
  const slug = file
    .replace(/^src\//, '')
    .replace(/\.ts$/, '')
    .replaceAll('/', '-');
  // A module that neither test files nor its importers' test files import is measured against every test that reaches it.
  const own = allTests ? [] : chosenTests.length > 0 ? chosenTests : ownTests(file);
  const tests = own.length > 0 ? own : undefined;
  process.stdout.write(`\n== ${file}: ${tests ? tests.join(' ') : 'every test that reaches it'}\n`);
  const results = await new Stryker({
    mutate: [file],
    ...(tests ? { testFiles: tests } : {}),
    concurrency,
    htmlReporter: { fileName: path.join(reportDir, `${slug}.html`) },
    jsonReporter: { fileName: path.join(reportDir, `${slug}.json`) },
  }).runMutationTest();
  const source = fs.readFileSync(path.join(root, file), 'utf8');
  const count = { killed: 0, survived: 0, noCoverage: 0, equivalent: 0, other: 0 };
  const survivors = [];
  for (const mutant of results) {
    if (mutant.status === 'Killed' || mutant.status === 'Timeout') count.killed++;
    else if (mutant.status === 'Survived' || mutant.status === 'NoCoverage') {
      if (listedEquivalent(file, mutant, source)) count.equivalent++;
      else {
        count[mutant.status === 'Survived' ? 'survived' : 'noCoverage']++;
        survivors.push(mutant);
      }
    } else count.other++;
  }
  const counted = count.killed + count.survived + count.noCoverage;
  const score = counted === 0 ? 100 : (100 * count.killed) / counted;
  rows.push({ file, score, ...count });
  for (const mutant of survivors) {
    const original = sliceOf(source, mutant.location).replace(/\s+/g, ' ').slice(0, 60);
    process.stdout.write(
      `  ${mutant.status} ${file}:${mutant.location.start.line} ${mutant.mutatorName}: ${original} -> ${mutant.replacement?.replace(/\s+/g, ' ').slice(0, 60)}\n`,
    );
  }
}

process.stdout.write('\nmodule | score | killed | survived | no coverage | equivalent\n');
for (const row of rows) {
  const mark = row.score < BAR ? '  < bar' : '';
  process.stdout.write(`${row.file} | ${row.score.toFixed(1)} % | ${row.killed} | ${row.survived} | ${row.noCoverage} | ${row.equivalent}${mark}\n`);
}
const stale = equivalents.filter((entry, index) => modules.includes(entry.file) && !used.has(index));
for (const entry of stale)
  process.stdout.write(`stryker-equivalents.json: no surviving mutant matches ${entry.file} ${entry.mutator} ${JSON.stringify(entry.original)}\n`);
process.exitCode = rows.some((row) => row.score < BAR) ? 1 : 0;
