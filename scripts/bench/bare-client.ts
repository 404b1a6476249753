// The reference for the latency part: the least a client can do per window (undici keep-alive pool,
// `concurrency` workers, GET + JSON.parse, nothing written), to show what the sandbox and this machine allow.
// Usage (built to dist/bench/ by scripts/build-bench.js): node dist/bench/bare-client.js <base-url> <concurrency> <windows-file: "from to" per line>
import fs from 'node:fs';
import { Agent, request } from 'undici';

const [url, concurrencyText, windowsFile] = process.argv.slice(2);
if (!url || !windowsFile) throw new Error('usage: bare-client.js <base-url> <concurrency> <windows-file>');
const concurrency = Number(concurrencyText);
const windows = fs
  .readFileSync(windowsFile, 'utf8')
  .trim()
  .split('\n')
  .map((line) => line.split(' '));
const dispatcher = new Agent({ connections: concurrency, keepAliveTimeout: 10_000, pipelining: 1 });
const headers = { accept: 'application/json', authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}` };

let next = 0;
let swaps = 0;
async function worker() {
  while (next < windows.length) {
    const [from, to] = windows[next++] ?? [];
    const response = await request(`${url}/v1/external/swaps?From=${from}&To=${to}`, { headers, dispatcher });
    if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode} for ${from} → ${to}`);
    const page: unknown[] = JSON.parse(await response.body.text());
    swaps += page.length;
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
await dispatcher.close();
process.stdout.write(`${swaps}\n`);
