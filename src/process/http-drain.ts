import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { problem, PROBLEM_CONTENT_TYPE } from '../common/problem.js';

const DRAINS = new WeakMap<Server, HttpDrain>();

/**
 * Drains an HTTP server for a graceful stop. Node's `server.close()` alone stops accepting but
 * waits for every kept-alive connection to close, and a busy client keeps its connections busy:
 * a stop under load waited for the keep-alive timeout (75 s). So {@link drain}:
 * 1. closes the listener (new connections are refused at once),
 * 2. answers requests that still arrive on kept-alive connections with 503 `shutting-down`,
 *    `Retry-After: 1` and `Connection: close` ({@link refuseWhileDraining}),
 * 3. marks every in-flight response `Connection: close` and closes idle connections,
 * 4. lets the caller end its live streams (SSE), then waits for the in-flight requests — at most
 *    the bound — and closes every connection left.
 * One per server: {@link HttpDrain.of}.
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

  /**
   * Middleware answering 503 `shutting-down` (problem+json, `Retry-After: 1`,
   * `Connection: close`) once the drain began; install it first.
   */
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
    this.server.close();
    for (const res of this.#inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    this.server.closeIdleConnections();
    endStreams();
    const deadline = Date.now() + boundMs;
    while (this.#inFlight.size > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      this.server.closeIdleConnections();
    }
    const cut = this.#inFlight.size;
    this.server.closeAllConnections();
    return cut;
  }
}
