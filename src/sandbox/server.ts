/**
 * The sandbox HTTP server: real sockets (node:http, keep-alive), optional
 * latency and injected faults around the pure answers of handler.ts.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatUtc } from '../util/time.js';
import { datasetFor } from './dataset.js';
import { checkFaultKinds, DEFAULT_FAULT_KINDS, FAULT_KINDS, latencyFor, pickFault, traceIdFor, type FaultKind } from './faults.js';
import { answer, type AppContext, type Reply } from './handler.js';
import { contentTypeFor } from './negotiate.js';
import { requestUrl } from './router.js';
import { tooManyRequestsProblem, unexpectedProblem } from './problems.js';

export interface SandboxOptions {
  /** Port to listen on. Default 8787; 0 picks a free port. */
  port?: number;
  /** Address to bind. Default '127.0.0.1'. */
  host?: string;
  /** Seed of all generated data. Default 1. */
  seed?: number;
  /** Mean added latency per request in ms, uniformly jittered ±20 %. Default 0. */
  latencyMs?: number;
  /** Share (0..1) of authenticated, valid requests answered with a fault. Default 0. */
  faultRate?: number;
  /**
   * The kinds a fault is drawn from, uniformly. Default every kind but 'slow' (429, 500, 503, reset,
   * truncated). Which requests fault does not depend on it, only what their fault is.
   */
  faultKinds?: readonly FaultKind[];
  /** How long a 'slow' fault holds back its (otherwise normal) answer, ms. Default 5000. */
  slowMs?: number;
  /** Mean swaps per hour. Default 2000. */
  swapsPerHour?: number;
  /** Accepted Basic credentials, 'client_id:api_key'. Default ['demo:demo']. */
  clients?: string[];
  /** Accepted Bearer tokens. Default ['demo-token']. */
  bearerTokens?: string[];
  /** Share (0..1) of swaps visible only lateByMs after their completedAt. Default 0. */
  lateShare?: number;
  /** Extra visibility delay of late swaps, ms. Default 0. */
  lateByMs?: number;
  /** How often swaps change after completion, a multiple of the realistic rate; 0: never. Default 1. */
  updateRate?: number;
  /** The sandbox clock (epoch ms). Swaps not yet visible at now() are never served. Default Date.now. */
  now?: () => number;
  /** Retry-After (seconds) sent with injected 429s. Default 1. */
  retryAfterSeconds?: number;
  /** Called once per request after it was answered (status 0 for a reset connection). */
  onRequest?: (info: { method: string; url: string; status: number; fault?: string }) => void;
}

export interface RunningSandbox {
  url: string;
  host: string;
  port: number;
  /** Stops listening and closes every connection, keep-alive ones included. */
  close(): Promise<void>;
  stats(): { requests: number; faults: Record<string, number> };
}

interface Counters {
  requests: number;
  faults: Record<FaultKind, number>;
}

/** A body's bytes: text encoded as UTF-8; bytes as they are. */
function bytesOf(body: string | Buffer): Buffer {
  return typeof body === 'string' ? Buffer.from(body) : body;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const now = options.now ?? Date.now;
  const dataset = datasetFor(options);
  const ctx: AppContext = {
    dataset,
    now,
    credentials: {
      clients: new Set(options.clients ?? ['demo:demo']),
      bearerTokens: new Set(options.bearerTokens ?? ['demo-token']),
    },
  };
  const faultRate = options.faultRate ?? 0;
  const faultKinds = options.faultKinds === undefined ? DEFAULT_FAULT_KINDS : checkFaultKinds(options.faultKinds);
  const slowMs = options.slowMs ?? 5000;
  const latencyMs = options.latencyMs ?? 0;
  const retryAfter = options.retryAfterSeconds ?? 1;
  const counters: Counters = {
    requests: 0,
    faults: Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>,
  };
  const timers = new Set<NodeJS.Timeout>();

  const report = (req: IncomingMessage, status: number, fault?: FaultKind) => {
    if (!options.onRequest) return;
    const info: { method: string; url: string; status: number; fault?: string } = { method: req.method ?? '', url: req.url ?? '', status };
    if (fault) info.fault = fault;
    options.onRequest(info);
  };

  const send = (res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}) => {
    // Encode once: the length and the bytes come from the same buffer.
    const bytes = bytesOf(body);
    res.writeHead(status, { 'Content-Type': type, 'Content-Length': bytes.length, ...extra });
    res.end(bytes);
  };

  const respond = (req: IncomingMessage, res: ServerResponse, n: number) => {
    // The Date header tells the sandbox clock, as a real server's tells its own: sync reads "the present" from it.
    res.setHeader('Date', new Date(now()).toUTCString());
    let reply: Reply;
    try {
      reply = answer(req.method ?? 'GET', req.url ?? '/', req.headers.authorization, ctx);
    } catch (error) {
      // A sandbox bug must still look like the API's 500, not a hung socket.
      const body = unexpectedProblem(req.url ?? '/', 500, formatUtc(now()), traceIdFor(dataset.seed, n));
      reply = { status: 500, body: () => JSON.stringify({ ...body, detail: String(error) }), faultable: false };
    }
    const type = contentTypeFor(req.headers.accept);
    const fault = reply.faultable ? pickFault(dataset.seed, n, faultRate, faultKinds) : undefined;
    if (fault) counters.faults[fault]++;
    const instance = requestUrl(req.url ?? '/').pathname;
    switch (fault) {
      case undefined:
        send(res, reply.status, type, reply.body(), reply.headers);
        break;
      case 'slow': {
        // The right answer, too late: a client with a shorter timeout has given up (and closed the socket) by then.
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (req.socket.destroyed) return report(req, 0, fault);
          send(res, reply.status, type, reply.body(), reply.headers);
          report(req, reply.status, fault);
        }, slowMs);
        timers.add(timer);
        return;
      }
      case 'reset':
        req.socket.destroy();
        report(req, 0, fault);
        return;
      case 'truncated': {
        const full = bytesOf(reply.body());
        res.writeHead(reply.status, { 'Content-Type': type, 'Content-Length': full.length });
        // Announce the full length, deliver half, then drop the connection.
        res.write(full.subarray(0, Math.floor(full.length / 2)), () => req.socket.destroy());
        break;
      }
      case '429':
        send(res, 429, type, JSON.stringify(tooManyRequestsProblem(instance, retryAfter)), { 'Retry-After': String(retryAfter) });
        break;
      case '500':
      case '503':
        send(res, Number(fault), type, JSON.stringify(unexpectedProblem(instance, fault === '500' ? 500 : 503, formatUtc(now()), traceIdFor(dataset.seed, n))));
        break;
    }
    report(req, fault === '429' || fault === '500' || fault === '503' ? Number(fault) : reply.status, fault);
  };

  // Answers are computed one per turn of the event loop, so a Ctrl-C between two long (dense) answers is
  // seen at once; after close() the ones still queued are dropped, not computed.
  let closing = false;
  const queue: (() => void)[] = [];
  let pumping = false;
  const pump = () => {
    const next = queue.shift();
    if (!next) {
      pumping = false;
      return;
    }
    if (!closing) next();
    setImmediate(pump);
  };
  const soon = (answer: () => void) => {
    queue.push(answer);
    if (!pumping) {
      pumping = true;
      setImmediate(pump);
    }
  };
  const server = createServer((req, res) => {
    if (closing) {
      req.socket.destroy();
      return;
    }
    const n = counters.requests++;
    // GET bodies are ignored, but must be drained for keep-alive to work.
    req.resume();
    const delay = latencyFor(dataset.seed, n, latencyMs);
    if (delay === 0) return soon(() => respond(req, res, n));
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!req.socket.destroyed) soon(() => respond(req, res, n));
    }, delay);
    timers.add(timer);
  });
  server.keepAliveTimeout = 5000;

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8787, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}`,
    host,
    port,
    stats: () => ({ requests: counters.requests, faults: { ...counters.faults } }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        closing = true;
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
