#!/usr/bin/env node
// `npm run mutate [module...] [--concurrency N]`: StrykerJS on the engine modules, one module at a time (each
// with its own dry run and per-test coverage, so a module's score says what the whole suite notices in it).
// A module is named as under src/ (`sync/pending.ts`, `sync/pending`, `src/sync/pending.ts`) or as a folder
// (`sync`); none means every engine module. Writes reports/mutation/<module>.html and .json, prints each
// module's score, and exits 1 when one is under the bar. Mutants listed in stryker-equivalents.json (each
// with the reason it cannot change behaviour) are not counted. See docs/mutation.md.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Stryker } from '@stryker-mutator/core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The engines: everything below the shell (src/cli, src/commands, src/main.ts) but the sandbox, a test tool. */
const ENGINE_DIRS = ['api', 'config', 'export', 'fs', 'output', 'sync', 'util', 'windows'];
const BAR = 85;

const args = process.argv.slice(2);
let concurrency = 2;
const named = [];
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg === '--concurrency' || arg.startsWith('--concurrency=')) {
    const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[++i];
    concurrency = Number(value);
    if (!Number.isInteger(concurrency) || concurrency < 1) fail(`--concurrency wants a whole number of at least 1, not ${JSON.stringify(value)}`);
  } else if (arg.startsWith('-')) fail(`unknown option ${arg} (usage: npm run mutate [module...] [--concurrency N])`);
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

const modules = [...new Set(named.length > 0 ? named.flatMap(resolveModule) : ENGINE_DIRS.flatMap((dir) => sourcesUnder(`src/${dir}`)))];
const equivalents = JSON.parse(fs.readFileSync(path.join(root, 'stryker-equivalents.json'), 'utf8')).mutants;
const used = new Set();

/** Whether a surviving mutant is one stryker-equivalents.json lists: same file, mutator, original code and replacement. */
function listedEquivalent(file, mutant, source) {
  const original = sliceOf(source, mutant.location);
  const index = equivalents.findIndex(
    (entry) => entry.file === file && entry.mutator === mutant.mutatorName && entry.original === original && entry.replacement === mutant.replacement,
  );
  if (index >= 0) used.add(index);
  return index >= 0;
}

/** The source text a mutant replaces (Stryker's lines here count from 0, its columns from 0). */
function sliceOf(source, { start, end }) {
  const lines = source.split('\n');
  const at = (position) => lines.slice(0, position.line).reduce((sum, line) => sum + line.length + 1, 0) + position.column;
  return source.slice(at(start), at(end));
}

const reportDir = path.join(root, 'reports/mutation');
fs.mkdirSync(reportDir, { recursive: true });
const rows = [];
for (const file of modules) {
  const slug = file
    .replace(/^src\//, '')
    .replace(/\.ts$/, '')
    .replaceAll('/', '-');
  process.stdout.write(`\n== ${file}\n`);
  const results = await new Stryker({
    mutate: [file],
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
      `  ${mutant.status} ${file}:${mutant.location.start.line + 1} ${mutant.mutatorName}: ${original} -> ${mutant.replacement?.replace(/\s+/g, ' ').slice(0, 60)}\n`,
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
