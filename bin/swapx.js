#!/usr/bin/env node
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

// undici parses HTTP with a WebAssembly build of llhttp; V8's optimising tier for it costs a
// ~35 MB spike of memory at the first request and gains nothing measurable for this workload.
setFlagsFromString('--liftoff-only');
// An export churns through every window's text and objects; growing the heap in 10 % steps (not
// V8's default, which lets it double) collects that garbage sooner: ~150 MB peak instead of ~200.
setFlagsFromString('--heap-growing-percent=10');
// Each swap is parsed, encoded and dropped (windows/json-elements.ts): nearly everything dies young, and a young
// generation that stays at its first size (2 MB, not the 32 MB it grows to) holds 30 MB less at no measured
// cost in CPU. Its maximum can only be set at start; its growth factor is read as it grows.
setFlagsFromString('--semi-space-growth-factor=1');

const bundle = new URL('../dist/cli-bundle/swapx.js', import.meta.url);
let program;
try {
  program = await import(bundle.href);
} catch (error) {
  // A clone that was never built (or was cleaned): say what to run, not Node's stack. Any other failure is a defect to see whole.
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes(fileURLToPath(bundle))) throw error;
  process.stderr.write("swapx: this checkout is not built: run 'npm run build' first\n");
  process.exitCode = 1;
}
if (program) process.exitCode = await program.main(process.argv.slice(2));
