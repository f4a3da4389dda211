import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { problem } from './problem.js';
import { rawProblemResponse } from './raw-problem-response.js';

/** Node's own answers (node:_http_server) to what it could not parse, by error code. */
const NODE_ANSWERS: Readonly<Record<string, string>> = {
  HPE_HEADER_OVERFLOW: 'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n',
};
const NODE_BAD_REQUEST = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n';

/**
 * Answers the errors Node's HTTP parser reports on `server` ('clientError') as Node itself
 * does — 431 for a request line or headers over the limit, 400 for anything it cannot parse,
 * always with `Connection: close` and then closing the socket (Fastify's own listener closed
 * it without saying so; remove it first) — except that a request whose headers did not arrive
 * within `server.headersTimeout` (`headersTimeoutMs`, ms) gets 408 `request-timeout` in
 * problem+json, like every other refusal, instead of Node's bodiless 408. Nothing is written when
 * the socket is no longer writable or an answer to it has begun.
 */
export function answerClientErrors(server: Server, headersTimeoutMs: number): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      socket.write(
        err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? rawProblemResponse(
              problem(
                'request-timeout',
                408,
                `the request's headers did not arrive within ${headersTimeoutMs} ms`,
              ),
            )
          : (NODE_ANSWERS[err.code ?? ''] ?? NODE_BAD_REQUEST),
      );
    }
    socket.destroy(err);
  });
}
