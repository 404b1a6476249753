/** Shared set-up for the sandbox tests: an in-process sandbox on an ephemeral port, hit over real sockets. */
import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';

/** A fixed clock a week after the day most tests query, so every swap of that day is visible. */
export const NOW = Date.parse('2026-11-08T00:00:00Z');
export const DAY = '2026-11-01';

export function basic(id: string, key: string): string {
  return `Basic ${Buffer.from(`${id}:${key}`).toString('base64')}`;
}

export const DEMO_AUTH = basic('demo', 'demo');

/** The spec's 404 ProblemDetails, written out here rather than built by the sandbox's own code; `detail` only when given. */
export function notFoundBody(instance: string, detail?: string): Record<string, unknown> {
  return { type: 'https://tools.ietf.org/html/rfc9110#section-15.5.5', title: 'Not Found', status: 404, ...(detail === undefined ? {} : { detail }), instance };
}

/** Starts a sandbox for the enclosing describe block; the getter is valid inside tests. */
export function useSandbox(options: SandboxOptions = {}): () => RunningSandbox {
  let sandbox: RunningSandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, now: () => NOW, retryAfterSeconds: 0, ...options });
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  return () => {
    if (!sandbox) throw new Error('sandbox not started');
    return sandbox;
  };
}

export interface Got {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

/** GET (or another method) with demo credentials unless `authorization` is given (null: none). */
export async function get(sandbox: RunningSandbox, path: string, init: { authorization?: string | null; accept?: string; method?: string } = {}): Promise<Got> {
  const headers: Record<string, string> = {};
  const authorization = init.authorization === undefined ? DEMO_AUTH : init.authorization;
  if (authorization !== null) headers.authorization = authorization;
  if (init.accept) headers.accept = init.accept;
  const res = await fetch(`${sandbox.url}${path}`, { method: init.method ?? 'GET', headers });
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** The swaps list path for a window. */
export function swapsPath(from: string, to: string, filter?: string): string {
  const q = new URLSearchParams({ From: from, To: to });
  if (filter !== undefined) q.set('Filter', filter);
  return `/v1/external/swaps?${q}`;
}

export function isoPlus(iso: string, ms: number): string {
  return new Date(Date.parse(iso) + ms).toISOString();
}
