#!/usr/bin/env node
// `npm run demo`: start the sandbox, export the last 24 hours to CSV with the real CLI, show the result, stop the sandbox.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../dist/sandbox/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'demo-output');
const output = path.join(outDir, 'swaps-last-24h.csv');
fs.mkdirSync(outDir, { recursive: true });

const sandbox = await startSandbox({ port: 0, latencyMs: 30 });
console.error(`sandbox: ${sandbox.url} (synthetic data, client demo:demo, 30 ms latency)\n`);
const env = {
  ...process.env,
  SWAPX_BASE_URL: sandbox.url,
  SWAPX_CLIENT_ID: 'demo',
  SWAPX_API_KEY: 'demo',
  SWAPX_CONFIG_DIR: path.join(outDir, '.config'),
};
const args = ['swaps', '--last', '24h', '--csv', '-o', output, '--force', '--concurrency', '8'];
console.error(`$ swapx ${args.join(' ').replace(root + path.sep, '')}`);
// Asynchronous: the sandbox answers from this same process.
const child = spawn(process.execPath, [path.join(root, 'bin/swapx.js'), ...args], { env, stdio: 'inherit' });
const [code] = await once(child, 'exit');
await sandbox.close();
if (code !== 0) process.exit(code ?? 1);

const lines = fs.readFileSync(output, 'utf8').split('\n');
console.error(`\n${path.relative(root, output)}: ${lines.length - 2} rows; the first three, first columns:`);
for (const line of lines.slice(0, 4)) console.error(`  ${line.slice(0, 150)}…`);
