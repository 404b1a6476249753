/**
 * The program as the bundled CLI loads it (scripts/build-cli.js builds this file as chunks/program.cjs, and
 * src/cli/program-cached.ts loads it): what src/main.ts runs, and the whole-or-nothing write with which the
 * loader saves the program's code cache, so that the loader itself imports nothing.
 */
export { run } from '../main.js';
export { writeFileAtomicSync } from '../output/atomic-file.js';
