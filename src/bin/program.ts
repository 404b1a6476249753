/**
 * The program as the bundled CLI loads it (scripts/build-cli.js builds this file as chunks/program.cjs, and
 * src/bin/program-cached.ts loads it): what src/main.ts runs, and for the loader, which imports nothing itself,
 * whether the run sent a request and the whole-or-nothing write with which it saves the program's code cache.
 */
export { run } from '../main.js';
export { hasLoadedTransport } from '../api/http.js';
export { writeFileAtomicSync } from '../fs/atomic-file.js';
