#!/usr/bin/env node
// The Postgres driver with one fix that its maintainers have not released (porsager/postgres issues 1154 and 1208,
// pull requests 1168 and 1209): a write the driver schedules for the next turn of the event loop (setImmediate)
// found the socket gone when the server had closed the connection meanwhile (a failover, pg_terminate_backend, a
// restart), and threw from the timer, where no caller can catch it: the process died with a stack and no line of
// ours. Fixed as the upstream pull request does: the write is dropped and the queries waiting on the connection are
// rejected with CONNECTION_CLOSED, which swapx reports as one line.
//
// `postgres` is pinned to the version this text is written against, and the patch runs at every build (`npm run
// build`, which `npm test`, `npm run demo` and `prepack` run first: no install-time script, which npm warns about on
// a global install), so the tests and the CLI run the patched driver, and the package bundles its patched copy
// (bundleDependencies). It changes the ES module build (the library, the tests) and the CommonJS one (the CLI bundle
// requires it); an already patched file is left as it is; a file where neither text is found fails the build,
// naming it, so that an upgrade of the driver is looked at rather than shipped unpatched. `--check` only says
// whether it is applied.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const VERSION = '3.4.9';
const MARK = '// swapx: a write after the close settles its queries';
const BEFORE = `  function nextWrite(fn) {
    const x = socket.write(chunk, fn)`;
const AFTER = `  function nextWrite(fn) {
    ${MARK} (porsager/postgres#1208), not a throw from a timer
    if (socket === null) {
      nextWriteTimer !== null && clearImmediate(nextWriteTimer)
      chunk = nextWriteTimer = null
      error(Errors.connection('CONNECTION_CLOSED', options))
      return false
    }
    const x = socket.write(chunk, fn)`;

const check = process.argv.includes('--check');
const require = createRequire(import.meta.url);
// The package's CommonJS entry, cjs/src/index.js (its exports map offers no package.json).
const root = path.resolve(path.dirname(require.resolve('postgres')), '../..');
const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
if (version !== VERSION) {
  console.error(`patch-postgres: postgres ${version} is installed; the patch is written for ${VERSION}: see scripts/patch-postgres.js`);
  process.exit(1);
}
let failed = false;
for (const file of ['src/connection.js', 'cjs/src/connection.js'].map((name) => path.join(root, name))) {
  const text = fs.readFileSync(file, 'utf8');
  if (text.includes(MARK)) continue;
  if (check || !text.includes(BEFORE)) {
    console.error(`patch-postgres: ${file} is ${check ? 'not patched' : 'not the text the patch is written for'}`);
    failed = true;
    continue;
  }
  fs.writeFileSync(file, text.replace(BEFORE, AFTER));
}
if (failed) process.exit(1);
