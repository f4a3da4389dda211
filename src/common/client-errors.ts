import { maxHeaderSize, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { problem, type ProblemDetails } from './problem.js';
import { rawProblemResponse } from './raw-problem-response.js';

/** How long a refused connection may take to drain its last answer before it is cut, ms. */
const DRAIN_MS = 5_000;

/**
 * Answers the errors Node's HTTP parser reports on `server` (Node.js docs "Event: 'clientError'")
 * as problem+json with `Connection: close` (431, 413, 408 after `headersTimeoutMs`, else 400
 * naming Node's reason), then closes the socket. Requests parsed before the error on the same
 * connection are answered first, in order, so a recorded claim never reaches its client as a
 * bare 400.
 */
export function answerClientErrors(server: Server, headersTimeoutMs: number): void {
  const unanswered = new WeakMap<Socket, { requests: Set<IncomingMessage>; then?: () => void }>();
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const entry = unanswered.get(socket) ?? { requests: new Set() };
    unanswered.set(socket, entry);
    entry.requests.add(req);
    const done = (): void => {
      res.off('finish', done);
      res.off('close', done);
      entry.requests.delete(req);
      if (entry.requests.size === 0) entry.then?.();
    };
    res.on('finish', done);
    res.on('close', done);
  });
  const refused = new WeakSet<Socket>();
  server.on('clientError', (err: NodeJS.ErrnoException & { reason?: string }, socket: Socket) => {
    if (refused.has(socket)) return; // the parser stays failed: one answer per connection
    refused.add(socket);
    socket.pause(); // read no more of what could not be parsed
    const answer = (): void => {
      // Bytes of an answer already on the wire must not be followed by another one (as Node).
      const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
      if (!socket.writable || current?.headersSent) return void socket.destroy();
      const cut = setTimeout(() => socket.destroy(), DRAIN_MS);
      cut.unref();
      socket.end(rawProblemResponse(refusalOf(err, headersTimeoutMs)), () => {
        clearTimeout(cut);
        socket.destroy();
      });
    };
    // A request whose body the error cut off can never be whole: answer now, as Node does.
    const entry = unanswered.get(socket);
    const waiting = [...(entry?.requests ?? [])];
    if (waiting.length > 0 && waiting.every((req) => req.complete)) entry!.then = answer;
    else answer();
  });
}

/** The problem answering a parser error of Node's (`err.code`, `err.reason`). */
function refusalOf(
  err: NodeJS.ErrnoException & { reason?: string },
  headersTimeoutMs: number,
): ProblemDetails {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return problem(
        'validation',
        431,
        `the request line and headers are over the server's limit of ${maxHeaderSize} bytes`,
      );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return problem('payload-too-large', 413, 'the chunk extensions of the request body are too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return problem(
        'request-timeout',
        408,
        `the request's headers did not arrive within ${headersTimeoutMs} ms`,
      );
    default:
      return problem(
        'validation',
        400,
        `the request is not valid HTTP/1.1${err.reason ? `: ${err.reason}` : ''}; the connection is closed`,
      );
  }
}
