/** Reading secrets: from standard input, or typed at a prompt that does not echo them. */
import { AbortedError, UsageError } from '../api/errors.js';
import type { InStream, OutStream } from './context.js';

/** All of standard input, trimmed of the trailing newline. */
export async function readAllStdin(stdin: InStream, what: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  const value = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '')
    .trim();
  if (value === '') throw new UsageError(`standard input held no ${what}`);
  if (/[\r\n]/.test(value)) throw new UsageError(`standard input held more than one line; give only the ${what}`);
  return value;
}

export async function promptVisible(stdin: InStream, stderr: OutStream, question: string): Promise<string> {
  // Loaded here: only `auth login` on a terminal needs it, and every start would pay for it.
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: stdin, output: stderr, terminal: true });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

/** Raw-mode read so the secret is never echoed; Ctrl-C aborts. */
export function promptHidden(stdin: InStream, stderr: OutStream, question: string): Promise<string> {
  stderr.write(question);
  return new Promise((resolve, reject) => {
    let value = '';
    stdin.setRawMode?.(true);
    stdin.resume();
    const finish = (error?: Error) => {
      stdin.removeListener('data', onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      stderr.write('\n');
      if (error) reject(error);
      else resolve(value.trim());
    };
    const onData = (data: Buffer | string) => {
      for (const ch of data.toString('utf8')) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return finish();
        if (ch === '\u0003') return finish(new AbortedError('interrupted'));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}
