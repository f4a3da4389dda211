import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import { problem, PROBLEM_CONTENT_TYPE } from '../common/problem.js';

const DRAINS = new WeakMap<Server, HttpDrain>();

/**
 * How long kept-alive connections stay open once the drain began, ms (at most half the bound):
 * long enough for a busy client's next request on each to be told 503 `Connection: close`.
 */
export const LINGER_MS = 1000;

/**
 * Drains an HTTP server for a graceful stop (docs/production.md "Stopping"). Node's
 * `server.close()` waits on busy kept-alive connections and resets idle ones at once (racing a
 * request sent right then), so {@link drain} closes the listener only and answers late requests
 * 503 `Connection: close` for {@link LINGER_MS}. One per server: {@link HttpDrain.of}.
 */
export class HttpDrain {
  readonly #inFlight = new Set<ServerResponse>();
  #draining = false;

  private constructor(private readonly server: Server) {
    server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
      this.#inFlight.add(res);
      res.once('close', () => this.#inFlight.delete(res));
    });
  }

  /** The drain of `server` (created, and its requests tracked, on first use: before it listens). */
  static of(server: Server): HttpDrain {
    let drain = DRAINS.get(server);
    if (!drain) DRAINS.set(server, (drain = new HttpDrain(server)));
    return drain;
  }

  /** Whether {@link drain} has begun. */
  get draining(): boolean {
    return this.#draining;
  }

  /** Requests being handled now (SSE streams included). */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** Middleware answering 503 `shutting-down` once the drain began; install it first. */
  readonly refuseWhileDraining = (_req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    if (!this.#draining) return next();
    const body = problem('shutting-down', 503, 'this ledger instance is shutting down; retry shortly');
    res.writeHead(503, {
      'Content-Type': PROBLEM_CONTENT_TYPE,
      'Retry-After': '1',
      Connection: 'close',
    });
    res.end(JSON.stringify(body));
  };

  /**
   * Stops accepting, then waits up to `boundMs` for in-flight requests (after `endStreams` ended
   * the live ones), then closes every connection left.
   * @returns the number of requests cut off at the bound (0 when all finished).
   */
  async drain(boundMs: number, endStreams: () => void = () => undefined): Promise<number> {
    this.#draining = true;
    NetServer.prototype.close.call(this.server); // the listener only (see the class comment)
    for (const res of this.#inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    endStreams();
    const start = Date.now();
    const deadline = start + boundMs;
    const lingerUntil = start + Math.min(LINGER_MS, boundMs / 2);
    while (Date.now() < deadline) {
      const lingering = Date.now() < lingerUntil && (await this.openConnections()) > 0;
      if (this.#inFlight.size === 0 && !lingering) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const cut = this.#inFlight.size;
    this.server.closeAllConnections();
    return cut;
  }

  /** Connections the server holds (idle kept-alive ones included). */
  private openConnections(): Promise<number> {
    return new Promise((resolve) => this.server.getConnections((_err, n) => resolve(n ?? 0)));
  }
}
