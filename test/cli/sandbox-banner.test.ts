/**
 * Found trying swapx on an 80-column terminal: the sandbox's banner was broken mid-word, its "try:" command
 * too. On a terminal it fits the width, the command continued with a backslash, so it still runs as pasted.
 */
import { describe, expect, it } from 'vitest';
import { Capture, runSwapx } from '../helpers/run.js';

describe('swapx sandbox on an 80-column terminal', () => {
  it('fits 80 columns, and its try command runs as pasted', async () => {
    const stop = new AbortController();
    const stdout = new Capture();
    const stderr = new Capture({ isTTY: true, columns: 80 });
    const running = runSwapx(['sandbox', '--port', '0'], { stdout, stderr, signal: stop.signal, env: { NO_COLOR: '1' } });
    while (!stderr.text.includes('Ctrl-C')) await new Promise((resolve) => setTimeout(resolve, 10));
    stop.abort();
    expect((await running).code).toBe(0);
    const url = stdout.text.trim();
    expect(stderr.text).toBe(
      [
        `swapx sandbox listening on ${url}`,
        '  (clients: demo:demo; clock: real)',
        `  try: SWAPX_BASE_URL=${url} SWAPX_CLIENT_ID=demo \\`,
        '    SWAPX_API_KEY=demo swapx chains',
        '  Ctrl-C stops it',
        '',
      ].join('\n'),
    );
  });
});
