import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { answerClientErrors } from './client-errors.js';
import { problem } from './problem.js';
import { rawProblemResponse } from './raw-problem-response.js';

/** A request whose body is still arriving. Times from `Date.now()`, ms. */
interface Arriving {
  readonly res: ServerResponse;
  readonly since: number;
  /** Marked by {@link streamedUpload}: bounded by silence, not by its whole length. */
  streamed: boolean;
  /** Last time a byte came (or the server held the body back), for a streamed upload. */
  lastProgress: number;
  /** `socket.bytesRead` at {@link lastProgress}. */
  bytesRead: number;
}

/** The arriving requests of each server limited by {@link limitSlowRequests}. */
const arriving = new WeakMap<IncomingMessage, Arriving>();

/**
 * Bounds how long one request may take to arrive (slowloris): headers 10 s, the whole request
 * `requestTimeoutMs`, except an upload marked {@link streamedUpload}, bounded by silence. Past its
 * bound: 408 problem+json and the connection closed. Only arrival is bounded (a slow handler is
 * not a slow client). Replaces Node's `requestTimeout`, which cannot spare one request.
 */
export function limitSlowRequests(server: Server, requestTimeoutMs: number): void {
  server.requestTimeout = 0;
  server.headersTimeout = Math.min(10_000, requestTimeoutMs);
  answerClientErrors(server, server.headersTimeout); // its 408 in problem+json too
  const everyMs = Math.min(1000, requestTimeoutMs);
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = everyMs;
  const open = new Map<IncomingMessage, Arriving>();
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const now = Date.now();
    const entry: Arriving = { res, since: now, streamed: false, lastProgress: now, bytesRead: 0 };
    open.set(req, entry);
    arriving.set(req, entry);
    // Kept when answered early (401, 413): a client trickling the body would hold the connection.
  });
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [req, entry] of open) {
      if (req.complete || req.socket.destroyed) {
        open.delete(req);
      } else if (overdue(req, entry, now, requestTimeoutMs)) {
        open.delete(req);
        if (!entry.res.headersSent && req.socket.writable) {
          req.socket.write(timeoutResponse(entry, requestTimeoutMs));
        }
        req.socket.destroy();
      }
    }
  }, everyMs);
  sweep.unref();
  server.once('close', () => clearInterval(sweep));
}

/** The 408 `request-timeout` problem+json answer of a request past its bound. */
function timeoutResponse(entry: Arriving, limitMs: number): string {
  const detail = entry.streamed
    ? `no byte of the upload arrived for ${limitMs} ms`
    : `the request did not arrive within ${limitMs} ms`;
  return rawProblemResponse(problem('request-timeout', 408, detail));
}

function overdue(req: IncomingMessage, entry: Arriving, now: number, limitMs: number): boolean {
  if (!entry.streamed) return now - entry.since > limitMs;
  const bytesRead = req.socket.bytesRead;
  // Paused: the reader holds the body back (backpressure from a slow store), not the client.
  if (bytesRead !== entry.bytesRead || req.readableFlowing === false) {
    entry.bytesRead = bytesRead;
    entry.lastProgress = now;
    return false;
  }
  return now - entry.lastProgress > limitMs;
}

/**
 * Marks `req` as a streamed upload: cut (408) only when no byte arrived for the request timeout
 * while the server was ready to read. Call it once the request is authenticated.
 */
export function streamedUpload(req: IncomingMessage): void {
  const entry = arriving.get(req);
  if (!entry || entry.streamed) return;
  entry.streamed = true;
  entry.lastProgress = Date.now();
  entry.bytesRead = req.socket.bytesRead;
}
