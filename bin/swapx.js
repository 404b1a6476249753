#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';

// undici parses HTTP with a WebAssembly build of llhttp; V8's optimising tier for it costs a
// ~35 MB spike of memory at the first request and gains nothing measurable for this workload.
setFlagsFromString('--liftoff-only');
// An export churns through every window's text and objects; growing the heap in 10 % steps (not
// V8's default, which lets it double) collects that garbage sooner: ~150 MB peak instead of ~200.
setFlagsFromString('--heap-growing-percent=10');
// Each swap is parsed, encoded and dropped (api/json-elements.ts): nearly everything dies young, and a young
// generation that stays at its first size (2 MB, not the 32 MB it grows to) holds 30 MB less at no measured
// cost in CPU. Its maximum can only be set at start; its growth factor is read as it grows.
setFlagsFromString('--semi-space-growth-factor=1');

const { main } = await import('../dist/cli-bundle/swapx.js');
process.exitCode = await main(process.argv.slice(2));
