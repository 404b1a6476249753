/** A small HTTP server of a test file's own, for servers the sandbox will not be: misbehaving ones. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** Answers one request; `count`: the how-manieth request this route has had (1 for the first). */
export type Route = (req: http.IncomingMessage, res: http.ServerResponse, count: number) => void;

export interface RouteServer {
  /** http://127.0.0.1:PORT, once the file's tests run */
  readonly base: string;
  readonly port: number;
  /** requests per route, by its prefix */
  readonly counts: Record<string, number>;
}

/**
 * Serves `routes` by the request path's first segment (`/ok/v1/external/...` goes to '/ok', so a route is a base URL
 * of its own); anything else is 404. Started before the calling file's tests, closed after them.
 */
export function useRouteServer(routes: Record<string, Route>): RouteServer {
  const counts: Record<string, number> = {};
  let server: http.Server | undefined;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const prefix = `/${(req.url ?? '').split('/')[1]}`;
      counts[prefix] = (counts[prefix] ?? 0) + 1;
      const route = routes[prefix];
      if (route) route(req, res, counts[prefix]);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });
  const port = () => (server!.address() as AddressInfo).port;
  return {
    counts,
    get port() {
      return port();
    },
    get base() {
      return `http://127.0.0.1:${port()}`;
    },
  };
}
